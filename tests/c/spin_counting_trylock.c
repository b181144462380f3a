// Retry loops that count their failed tries: main retries a mutex's trylock, the worker
// a semaphore's trywait, each counting. A failed try changes nothing, so a try after the
// loop's third visit fails again without a step while no other thread runs (the
// retries would otherwise go on until the step bound: a `bound` defect, before). No
// defect; larger counts were not explored, so the verdict is `incomplete`.
// expect: verdict=incomplete maximal=17
#include <assert.h>
#include <pthread.h>
#include <semaphore.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
sem_t s;
int shared;

void *worker(void *arg) {
    pthread_mutex_lock(&m);
    shared++;
    pthread_mutex_unlock(&m);
    int waits = 0;
    while (sem_trywait(&s) != 0)
        waits++;
    return arg;
}

int main(void) {
    sem_init(&s, 0, 0);
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    int tries = 0;
    while (pthread_mutex_trylock(&m) != 0)
        tries++;
    shared++;
    pthread_mutex_unlock(&m);
    sem_post(&s);
    pthread_join(t, 0);
    assert(shared == 2);
    return 0;
}
