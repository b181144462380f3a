// mem_stack_after_exit.c fixed: the worker waits until main has read its local before it
// returns, so its stack is alive when main reads it.
// expect: verdict=ok maximal=1
// Derivation: each semaphore has one post and one wait, and the wait can only follow
// the post: the visible operations have a single order.
#include <pthread.h>
#include <semaphore.h>

int *result;
sem_t ready, done;

void *worker(void *arg) {
    (void)arg;
    int local = 42;
    result = &local;
    sem_post(&ready);
    sem_wait(&done);
    return 0;
}

int main(void) {
    sem_init(&ready, 0, 0);
    sem_init(&done, 0, 0);
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    sem_wait(&ready);
    int v = *result;
    sem_post(&done);
    pthread_join(t, 0);
    return v == 42 ? 0 : 1;
}
