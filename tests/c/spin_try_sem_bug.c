// spin_try_sem.c with the producer posting before it sets the data (under a mutex, so
// that there is no race): main can read it first, and the assertion fails. Found,
// instead of a `bound` defect.
// expect: verdict=defect kind=assertion line=31
#include <pthread.h>
#include <semaphore.h>
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
    sem_init(&s, 0, 0);
    pthread_create(&t, 0, producer, 0);
    while (sem_trywait(&s) != 0)
        ;
    pthread_mutex_lock(&m);
    int d = data;
    pthread_mutex_unlock(&m);
    assert(d == 42);
    pthread_join(t, 0);
    return 0;
}
