// A sense-reversing barrier on `atomic_int count, sense;`, declared together so that
// both lie in one 8-byte word: each thread flips its local sense and fetch_adds
// `count`; the last to arrive resets `count` and stores its sense to `sense`, the others
// spin until `sense` equals theirs. Between barriers each thread writes its slot of a
// double-buffered array and, after the barrier, reads everyone's slot of that round
// (plain accesses the barrier orders: a data race if it did not).
// THREADS threads (3) pass ROUNDS barriers (2); -D APART puts the two variables in
// separate words (`_Alignas(8)`).
// Dependence is byte-aware: the accesses to `count` and to `sense` touch disjoint bytes
// of the word, so they commute, and a spin on `sense` is woken only by the store to
// `sense`, not by another thread's fetch_add on `count`. The traces are those of the
// separated version, under optimal-, source- and classic-DPOR: 3 x 2: 1 350, as with
// -D APART (2 916 while a woken spin-wait was performed and its thread tried again;
// before byte-aware dependence: 1 965 749 executions when stopped at 120 s);
// 3 x 1: 54 (before: 28 296); 2 x 1: 6 (before: 72), which dfs confirms (200
// interleavings, 6 distinct). The counts are pinned by c_programs.rs
// (`adjacent_atomics_are_separate_locations`): dfs cannot enumerate 3 x 2.
// docs/memory.md, "Byte-aware dependence".
// expect: verdict=ok flags=--algorithm=optimal-dpor
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

#ifndef THREADS
#define THREADS 3
#endif
#ifndef ROUNDS
#define ROUNDS 2
#endif

#ifdef APART
_Alignas(8) atomic_int count;
_Alignas(8) atomic_int sense;
#else
_Alignas(8) struct {
    atomic_int count, sense;
} b;
#define count b.count
#define sense b.sense
#endif

int data[2][THREADS];

static void barrier_wait(int *local) {
    *local = !*local;
    if (atomic_fetch_add(&count, 1) == THREADS - 1) {
        atomic_store(&count, 0);
        atomic_store(&sense, *local);
    } else {
        while (atomic_load(&sense) != *local) {
        }
    }
}

static void *worker(void *arg) {
    int id = (int)(long)arg, local = 0;
    for (int r = 0; r < ROUNDS; r++) {
        data[r % 2][id] = r + 1;
        barrier_wait(&local);
        for (int j = 0; j < THREADS; j++)
            assert(data[r % 2][j] == r + 1);
    }
    return 0;
}

int main(void) {
    pthread_t t[THREADS];
    for (long i = 0; i < THREADS; i++)
        pthread_create(&t[i], 0, worker, (void *)i);
    for (int i = 0; i < THREADS; i++)
        pthread_join(t[i], 0);
    return 0;
}
