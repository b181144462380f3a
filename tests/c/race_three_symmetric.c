// Three threads meet at a barrier, then each sums the three slots; the one the barrier
// elects then overwrites slot 0, racing with the other two threads' reads of it. Which
// threads race depends on which one is elected and on the order of the reads, but the
// race is one defect: with --keep-going every explorer reports the same two (a read of
// slot 0 before the write, and the write after a read), as c_programs.rs checks.
// expect: verdict=defect kind=data-race line=19|22
#include <pthread.h>

#define N 3
pthread_barrier_t b;
int slot[N], total[N];

void *worker(void *arg) {
    long i = (long)arg;
    slot[i] = (int)i + 1;
    int elected = pthread_barrier_wait(&b) == PTHREAD_BARRIER_SERIAL_THREAD;
    int s = 0;
    for (int j = 0; j < N; j++)
        s += slot[j];
    total[i] = s;
    if (elected)
        slot[0] = 0;
    return 0;
}

int main(void) {
    pthread_t t[N];
    pthread_barrier_init(&b, 0, N);
    for (long i = 0; i < N; i++)
        pthread_create(&t[i], 0, worker, (void *)i);
    for (int i = 0; i < N; i++)
        pthread_join(t[i], 0);
    pthread_barrier_destroy(&b);
    return 0;
}
