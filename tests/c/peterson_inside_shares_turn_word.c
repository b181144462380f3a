// tests/c/peterson_unbounded.c as first written, with `turn` an atomic_int: the plain
// `inside` then shares turn's 8-byte word. A plain write is a visible step only if it
// touches bytes a pending spin-wait loaded, so `inside++` is never one and the
// program's visible operations do not depend on the schedule. (Before, it was a step
// while the other thread's wait on (want, turn) was pending: dfs found 248 traces,
// source- and classic-DPOR 236, and optimal-DPOR stopped with "a thread's visible
// operations depend on the schedule".)
// expect: verdict=ok maximal=14 flags=--algorithm=optimal-dpor
// Derivation: the same 14 traces as peterson_unbounded.c (whose `turn` fills its word),
// found alike by dfs (1 985 schedules, 14 distinct), optimal-, source- and
// classic-DPOR (17 traces and 3 297 schedules while the loads' dead temporaries kept a
// spin from waiting at its second visit of `turn`, docs/memory.md "Dead temporaries";
// 21 traces and 13 505 schedules while a woken wait was performed and
// its thread tried again; docs/memory.md, "Spin-waits as assumptions"). (38 while every access to a word was dependent: `want[0]` and
// `want[1]` share one, and a thread's store to its flag now commutes with the other's
// accesses to its own, docs/memory.md "Byte-aware dependence".)
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

atomic_int want[2], turn;
int inside, shared;

void *proc(void *arg) {
    int me = (int)(long)arg, other = 1 - me;
    atomic_store(&want[me], 1);
    atomic_store(&turn, other);
    while (atomic_load(&want[other]) && atomic_load(&turn) == other) {
    }
    inside++;
    assert(inside == 1);
    shared++;
    inside--;
    atomic_store(&want[me], 0);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, proc, (void *)0);
    pthread_create(&b, 0, proc, (void *)1);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(shared == 2);
    return 0;
}
