// An atexit handler that fails an assertion only when a thread wrote last: found in the
// schedules where it fails (the handler runs at the end of each execution).
// expect: verdict=defect kind=assertion
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int last;
void check(void) { assert(last != 1); }
void *t(void *a) {
    (void)a;
    pthread_mutex_lock(&m);
    last = 1;
    pthread_mutex_unlock(&m);
    return 0;
}
int main(void) {
    atexit(check);
    pthread_t h;
    pthread_create(&h, 0, t, 0);
    pthread_mutex_lock(&m);
    last = 2;
    pthread_mutex_unlock(&m);
    pthread_join(h, 0);
    return 0;
}
