// POSIX error-checking and recursive mutexes report misuse by return codes, which a
// program may rely on: a relock by the owner returns EDEADLK (the owner keeps the
// mutex), an unlock by a thread that does not hold it returns EPERM, whether the other
// thread holds it at that moment or not. Both threads run the same sequence; the two
// orders of their critical sections are the two traces.
// expect: verdict=ok maximal=2
#include <assert.h>
#include <errno.h>
#include <pthread.h>

pthread_mutex_t ec, rec;

void *use(void *arg) {
    assert(pthread_mutex_unlock(&ec) == EPERM);
    assert(pthread_mutex_unlock(&rec) == EPERM);
    assert(pthread_mutex_lock(&ec) == 0);
    assert(pthread_mutex_lock(&ec) == EDEADLK);
    assert(pthread_mutex_trylock(&ec) == EBUSY);
    assert(pthread_mutex_unlock(&ec) == 0);
    assert(pthread_mutex_unlock(&ec) == EPERM);
    return arg;
}

int main(void) {
    pthread_mutexattr_t a;
    pthread_mutexattr_init(&a);
    pthread_mutexattr_settype(&a, PTHREAD_MUTEX_ERRORCHECK);
    pthread_mutex_init(&ec, &a);
    pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&rec, &a);
    pthread_t t;
    pthread_create(&t, 0, use, 0);
    use(0);
    pthread_join(t, 0);
    return 0;
}
