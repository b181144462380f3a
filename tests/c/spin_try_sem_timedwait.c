// spin_try_sem.c with sem_timedwait in the retry loop (a time-out is explored as a failed
// try: it can happen whenever the value is zero).
// expect: verdict=ok maximal=3
// Derivation: as spin_try_sem.c.
#include <pthread.h>
#include <semaphore.h>
#include <time.h>
#include <assert.h>

sem_t s;
int data;

void *producer(void *arg) {
    (void)arg;
    data = 42;
    sem_post(&s);
    return 0;
}

int main(void) {
    pthread_t t;
    struct timespec ts = {0, 1000};
    sem_init(&s, 0, 0);
    pthread_create(&t, 0, producer, 0);
    while (sem_timedwait(&s, &ts) != 0)
        ;
    assert(data == 42);
    pthread_join(t, 0);
    return 0;
}
