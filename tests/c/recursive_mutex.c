// A recursive mutex relocked by its owner: the inner lock/unlock are not visible.
// expect: verdict=ok maximal=2
// Derivation: each worker has one visible lock and one visible unlock of m (the nested
// pair only changes the recursion count); the two critical sections are ordered in one
// of 2 ways. main's create/join/destroy steps are ordered by causality.
#include <pthread.h>
#include <assert.h>

pthread_mutex_t m;
int count = 0;

void *worker(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    pthread_mutex_lock(&m);
    count++;
    pthread_mutex_unlock(&m);
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_mutexattr_t attr;
    pthread_mutexattr_init(&attr);
    pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&m, &attr);
    pthread_mutexattr_destroy(&attr);
    pthread_t a, b;
    pthread_create(&a, 0, worker, 0);
    pthread_create(&b, 0, worker, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(count == 2);
    pthread_mutex_destroy(&m);
    return 0;
}
