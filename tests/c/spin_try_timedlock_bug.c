// spin_try_timedlock.c with the increment split into two critical sections, each entered
// with a pthread_mutex_timedlock retry loop: a lost update, the assertion fails.
// expect: verdict=defect kind=assertion line=34
#include <pthread.h>
#include <time.h>
#include <assert.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int counter;

static void take(void) {
    struct timespec ts = {0, 1000};
    while (pthread_mutex_timedlock(&m, &ts) != 0)
        ;
}

void *worker(void *arg) {
    (void)arg;
    take();
    int tmp = counter;
    pthread_mutex_unlock(&m);
    take();
    counter = tmp + 1;
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, worker, 0);
    pthread_create(&b, 0, worker, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(counter == 2);
    return 0;
}
