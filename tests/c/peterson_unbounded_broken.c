// Peterson's algorithm with the unbounded wait and the two stores of the entry
// protocol swapped (turn first): both threads can enter the critical section. The wait
// reads two locations and blocks until either is written; the bad schedule is found as
// the assertion, or as the data race on the counters the critical section protects,
// whichever the exploration meets first. (`turn` fills its word, see
// peterson_unbounded.c; with --keep-going every DPOR finds the same 16 traces, and dfs
// 3 873 interleavings, 16 distinct: 28 while every access to a word was dependent.)
// expect: verdict=defect kind=assertion|data-race flags=--algorithm=optimal-dpor
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

atomic_int want[2];
atomic_long turn;
int inside;

void *proc(void *arg) {
    int me = (int)(long)arg, other = 1 - me;
    atomic_store(&turn, other);
    atomic_store(&want[me], 1);
    while (atomic_load(&want[other]) && atomic_load(&turn) == other) {
    }
    inside++;
    assert(inside == 1);
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
    return 0;
}
