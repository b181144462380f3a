// One barrier per round, and none between reading the round's slots and writing the
// next round's: a thread that leaves round 1 first writes its round-2 slot while a
// slower one still reads round 1's. Leaving a round orders only that round's arrivals
// before the leaver, so the write and the read race — reported in the execution where
// the slow reader sees the round-2 value (its assertion fails there too, after the
// race), not only in a later one.
// expect: verdict=defect kind=data-race
#include <assert.h>
#include <pthread.h>

#define N 3
pthread_barrier_t bar;
int slot[N];

static void *worker(void *arg) {
    int id = (int)(long)arg;
    for (int round = 1; round <= 2; round++) {
        slot[id] = round * (id + 1);
        pthread_barrier_wait(&bar);
        int sum = 0;
        for (int k = 0; k < N; k++)
            sum += slot[k];
        assert(sum == round * 6);
    }
    return 0;
}

int main(void) {
    pthread_t t[N];
    pthread_barrier_init(&bar, 0, N);
    for (long i = 0; i < N; i++)
        pthread_create(&t[i], 0, worker, (void *)i);
    for (int i = 0; i < N; i++)
        pthread_join(t[i], 0);
    pthread_barrier_destroy(&bar);
    return 0;
}
