// spin_try_sem_bug.c with sem_timedwait in the retry loop: the post comes before the
// data, the assertion fails.
// expect: verdict=defect kind=assertion line=32
#include <pthread.h>
#include <semaphore.h>
#include <time.h>
#include <assert.h>

sem_t s;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int data;

void *producer(void *arg) {
    (void)arg;
    sem_post(&s);
    pthread_mutex_lock(&m);
    data = 42;
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t t;
    struct timespec ts = {0, 1000};
    sem_init(&s, 0, 0);
    pthread_create(&t, 0, producer, 0);
    while (sem_timedwait(&s, &ts) != 0)
        ;
    pthread_mutex_lock(&m);
    int d = data;
    pthread_mutex_unlock(&m);
    assert(d == 42);
    pthread_join(t, 0);
    return 0;
}
