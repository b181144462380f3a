// spin_try_cond_timedwait.c with the producer setting the data in a second critical
// section after the flag: main can read it in between, and the assertion fails. Found,
// instead of a `bound` defect.
// expect: verdict=defect kind=assertion line=34 flags=--algorithm=optimal-dpor
#include <pthread.h>
#include <time.h>
#include <assert.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
int ready, data;

void *producer(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    ready = 1;
    pthread_cond_signal(&cv);
    pthread_mutex_unlock(&m);
    pthread_mutex_lock(&m);
    data = 42;
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t t;
    struct timespec ts = {0, 1000};
    pthread_create(&t, 0, producer, 0);
    pthread_mutex_lock(&m);
    while (!ready)
        pthread_cond_timedwait(&cv, &m, &ts);
    int d = data;
    pthread_mutex_unlock(&m);
    assert(d == 42);
    pthread_join(t, 0);
    return 0;
}
