// A spin-wait and a plain variable in the same 8-byte word: `flag` (atomic) and `data`
// (plain) of one struct. The writer stores `data` plainly around an atomic store to
// another location, then sets `flag`; the waiter spins until `flag` is set and reads
// `data` (ordered by the flag: no race, the assertion holds).
//
// Known issue: the runtime makes a plain write a visible step while another thread's
// spin-wait on the written word is pending (so that a racy plain spin wakes), so the
// writer's second store of `data` is a step or not depending on whether the waiter
// already blocked: its visible operations depend on the schedule. dfs finds 11 traces;
// optimal-, source- and classic-DPOR find 10, silently (the engine's model
// `programs::await_false_sharing` has the same gap: 7 traces, the DPORs 6).
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
