// Each thread has its own errno, as with pthreads: one thread's strtol overflow (ERANGE,
// set inside libc) and another's errno = 0 do not meet, across every schedule of the two
// lock operations between them. The program's threads are coroutines of one OS thread
// with one errno: it was shared, and the assertions failed (with data races on errno).
// expect: verdict=ok
#include <assert.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *overflow(void *arg) {
    (void)arg;
    errno = 0;
    long v = strtol("99999999999999999999999", 0, 10);
    pthread_mutex_lock(&m);
    pthread_mutex_unlock(&m);
    assert(v == LONG_MAX && errno == ERANGE);
    return 0;
}
int main(void) {
    pthread_t t;
    pthread_create(&t, 0, overflow, 0);
    errno = 0;
    pthread_mutex_lock(&m);
    pthread_mutex_unlock(&m);
    assert(errno == 0);
    pthread_join(t, 0);
    return 0;
}
