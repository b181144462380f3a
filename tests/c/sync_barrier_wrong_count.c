// A barrier reused with the wrong count: it counts main and two workers, but main only
// takes part in the first round, so the workers' second round never completes.
// expect: verdict=defect kind=deadlock line=13
#include <pthread.h>

pthread_barrier_t bar;

void *worker(void *arg) {
    (void)arg;
    /* round 1 */
    pthread_barrier_wait(&bar);
    /* round 2: main does not come */
    pthread_barrier_wait(&bar);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_barrier_init(&bar, 0, 3);
    pthread_create(&a, 0, worker, 0);
    pthread_create(&b, 0, worker, 0);
    pthread_barrier_wait(&bar);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
