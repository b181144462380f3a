// A waiter recomputes its deadline around every timed wait, as real code does
// (`clock_gettime`, one second more, `pthread_cond_timedwait`), until the flag is set.
// The deadline changed at every iteration (real time, or a clock moved by each reading),
// so the loop was never a pure iteration: the first schedule timed out forever and the
// run ended in a false `bound` livelock. Readings between visible steps are frozen: the
// loop comes back to the same state and waits for the setter.
// expect: verdict=ok
#include <pthread.h>
#include <time.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
int ready;
void *setter(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    ready = 1;
    pthread_cond_signal(&c);
    pthread_mutex_unlock(&m);
    return 0;
}
int main(void) {
    pthread_t t;
    pthread_create(&t, 0, setter, 0);
    pthread_mutex_lock(&m);
    while (!ready) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_sec += 1;
        pthread_cond_timedwait(&c, &m, &ts);
    }
    pthread_mutex_unlock(&m);
    pthread_join(t, 0);
    return 0;
}
