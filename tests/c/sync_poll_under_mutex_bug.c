// Polling under a mutex (as in sync_poll_under_mutex.c), but the producer publishes the
// flag in one critical section and the data in a later one: main can see the flag and
// read the data before it is written. The poll is turned into a wait, and the failing
// schedule is still found.
// expect: verdict=defect kind=assertion line=35
#include <pthread.h>
#include <assert.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
_Atomic int flag;
int data;

void *producer(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    flag = 1;
    pthread_mutex_unlock(&m);
    pthread_mutex_lock(&m);
    data = 42;
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, producer, 0);
    for (;;) {
        pthread_mutex_lock(&m);
        if (flag) {
            break;
        }
        pthread_mutex_unlock(&m);
    }
    int d = data;
    assert(d == 42);
    pthread_mutex_unlock(&m);
    pthread_join(t, 0);
    return 0;
}
