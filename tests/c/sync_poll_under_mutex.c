// main polls an atomic flag under the mutex that protects it (lock, test, unlock, repeat).
// An iteration whose only visible operations are a balanced lock/unlock of one mutex
// and whose reads saw nothing new is pure: main stops polling after three identical
// iterations and waits (outside the mutex) for a write to the flag. No race (the flag
// and data are protected), no failure, and a handful of executions (5 under every
// explorer, measured) instead of one per number of iterations.
// expect: verdict=ok
#include <pthread.h>
#include <assert.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
_Atomic int flag;
int data;

void *producer(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    data = 42;
    flag = 1;
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, producer, 0);
    for (;;) {
        pthread_mutex_lock(&m);
        if (flag) break;
        pthread_mutex_unlock(&m);
    }
    assert(data == 42);
    pthread_mutex_unlock(&m);
    pthread_join(t, 0);
    return 0;
}
