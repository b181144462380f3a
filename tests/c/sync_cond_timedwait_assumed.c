// A timed wait can time out (explored, not timed): a program asserting that
// pthread_cond_timedwait is always signalled is wrong.
// expect: verdict=defect kind=assertion line=17
#include <pthread.h>
#include <time.h>
#include <assert.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
int ready;

void *waiter(void *arg) {
    (void)arg;
    struct timespec t = {0, 0};
    pthread_mutex_lock(&m);
    while (!ready) {
        assert(pthread_cond_timedwait(&c, &m, &t) == 0);
    }
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t w;
    pthread_create(&w, 0, waiter, 0);
    pthread_mutex_lock(&m);
    ready = 1;
    pthread_cond_signal(&c);
    pthread_mutex_unlock(&m);
    pthread_join(w, 0);
    return 0;
}
