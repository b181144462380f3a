// The two-consumer buffer with `while`: a consumer that finds the buffer empty after
// its wake-up waits again, so no consumer ever takes from an empty buffer (checked
// also with --spurious-wakeups by the algorithm-agreement test).
// expect: verdict=ok maximal=44
#include <pthread.h>
#include <assert.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
int items;

void *consumer(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    while (items == 0)
        pthread_cond_wait(&c, &m);
    items--;
    assert(items >= 0);
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, consumer, 0);
    pthread_create(&b, 0, consumer, 0);
    /* main produces two items, one at a time */
    for (int i = 0; i < 2; i++) {
        pthread_mutex_lock(&m);
        items++;
        pthread_cond_signal(&c);
        pthread_mutex_unlock(&m);
    }
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
