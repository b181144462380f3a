// The count of polls lives in a global (and the loop also bumps a heap counter): in race
// mode a plain write is no step, so the loop is a counting poll all the same — its plain
// writes change memory, so it is never found waiting, but its polls are hidden after
// 17 (before: a `bound` defect). main reads the counts after the join, ordered by it:
// no race. The verdict is `incomplete` since larger counts were not explored.
// expect: verdict=incomplete maximal=18
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

atomic_int flag;
long spins;
int data;

void *writer(void *arg) {
    data = 5;
    atomic_store(&flag, 1);
    return arg;
}

int main(void) {
    long *heap = calloc(1, sizeof *heap);
    pthread_t t;
    pthread_create(&t, 0, writer, 0);
    while (atomic_load(&flag) == 0) {
        spins++;
        ++*heap;
    }
    assert(data == 5);
    pthread_join(t, 0);
    assert(spins == *heap);
    free(heap);
    return 0;
}
