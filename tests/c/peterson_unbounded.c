// Peterson's mutual exclusion on sequentially consistent atomics, with the textbook
// unbounded wait `while (want[other] && turn == other) {}`. An iteration of that loop
// reads two locations (want, turn) and changes nothing: it is a spin-wait on both,
// which blocks until another thread writes either, so no execution is spent on
// iterations. Mutual exclusion holds and the critical section's plain accesses do not
// race. Run with optimal-DPOR: qpor refuses a spin-wait on several locations.
// `turn` is an atomic_long so that it fills its 8-byte word (the version where the
// plain `inside` shares turn's word: peterson_inside_shares_turn_word.c).
// expect: verdict=ok maximal=14 flags=--algorithm=optimal-dpor
// Derivation: 14 traces under read-read independence (the DPORs' relation), found
// alike by dfs (1 985 schedules, 14 distinct), optimal-, source- and classic-DPOR, and
// by brute force on the engine's model of the program, `programs::peterson_int_flags`
// (1 985 schedules too). 17 traces and 3 297 schedules while the loads' dead
// temporaries kept the first thread from waiting before its third visit of the loop
// (docs/memory.md, "Dead temporaries").
// The wait is an assumption (docs/memory.md, "Spin-waits as assumptions"): 21 traces
// and 13 505 schedules while a woken wait was performed and its thread tried again.
// `want[0]` and `want[1]` share one 8-byte word on disjoint bytes: a thread's store to
// its flag commutes with the other's accesses to its own (byte-aware dependence,
// docs/memory.md). 38 while every access to a word was dependent (the model with both
// flags as bits of one variable, `programs::peterson_with(false, true)`); 44, and 20 675
// schedules, while a spin was found waiting only at the third visit of its checkpoint.
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

atomic_int want[2];
atomic_long turn;
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
