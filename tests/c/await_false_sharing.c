// A spin-wait and a plain variable in the same 8-byte word: `flag` (atomic) and `data`
// (plain) of one struct. The writer stores `data` plainly around an atomic store to
// another location, then sets `flag`; the waiter spins until `flag` is set and reads
// `data` (ordered by the flag: no race, the assertion holds).
// A plain write is a visible step only if it touches bytes a pending spin-wait loaded:
// `data` shares flag's word but not its bytes, so its stores are never steps. (Before,
// any plain write to an awaited word was a step while a wait was pending, which made
// the writer's steps depend on the schedule: dfs found 11 traces, every DPOR 10.)
// expect: verdict=ok maximal=4 flags=--algorithm=optimal-dpor
// Derivation: dfs runs 56 schedules and finds 4 distinct traces; optimal-, source- and
// classic-DPOR and qpor each run exactly 4 executions. The waiter's loop waits at its
// second visit (one load of `flag`, then the wait): its first visit is compared, the
// thread's stack and registers being zeroed where its code begins (memory.rs, "spin
// loops"). Before the registers were zeroed, a register the runtime's frame had left
// there made the first visit differ from the second in some builds (6 traces).
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

struct { atomic_int flag; int data; } s;
atomic_int other;

void *writer(void *a) {
    (void)a;
    s.data = 1;
    atomic_store(&other, 1);
    s.data = 2;
    atomic_store(&s.flag, 1);
    return 0;
}

void *waiter(void *a) {
    (void)a;
    atomic_store(&other, 2);
    while (!atomic_load(&s.flag)) {
    }
    assert(s.data == 2);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, writer, 0);
    pthread_create(&b, 0, waiter, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
