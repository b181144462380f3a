// Peterson's mutual exclusion with its variables adjacent, as litmus tests and SV-COMP
// programs declare them: `turn` and `flag[0]` share one 8-byte word (bytes 0-3 and
// 4-7), `flag[1]` begins the next. Each thread raises its flag, gives the turn away,
// and waits `while (flag[other] && turn == other)`: a spin-wait on two locations,
// each on the bytes it reads. Dependence is byte-aware: a thread's store to its own
// flag commutes with the other's accesses to `turn` in the same word, and the wait on
// `turn` is not woken by a store to `flag[0]`. 14 traces under optimal-, source- and
// classic-DPOR, and dfs (22 715 interleavings, 14 distinct; 17 traces and 33 289
// interleavings while a spin compared its visits byte for byte, its loads' dead
// temporaries included, docs/memory.md "Dead temporaries"; 21 traces and 151 559
// interleavings before spin-waits on atomics were assumptions). (The broken entry
// protocol: peterson_adjacent_broken.c; qpor refuses a wait on two locations.)
// expect: verdict=ok maximal=14 flags=--algorithm=optimal-dpor
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

#ifndef ROUNDS
#define ROUNDS 1
#endif

_Alignas(8) struct {
    atomic_int turn;
    atomic_int flag[2];
} s;
atomic_int inside;

static void *proc(void *arg) {
    int me = (int)(long)arg, other = 1 - me;
    for (int r = 0; r < ROUNDS; r++) {
        atomic_store(&s.flag[me], 1);
        atomic_store(&s.turn, other);
        while (atomic_load(&s.flag[other]) && atomic_load(&s.turn) == other) {
        }
        atomic_fetch_add(&inside, 1);
        assert(atomic_load(&inside) == 1);
        atomic_fetch_sub(&inside, 1);
        atomic_store(&s.flag[me], 0);
    }
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, proc, (void *)0);
    pthread_create(&b, 0, proc, (void *)1);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
