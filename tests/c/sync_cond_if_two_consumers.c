// `if` instead of `while` with two consumers: consumer A waits, main adds an
// item and signals A, but consumer B takes the item before A reacquires the mutex; A
// then takes from an empty buffer. Found without spurious wake-ups.
// expect: verdict=defect kind=assertion line=18
#include <pthread.h>
#include <assert.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
int items;

void *consumer(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    if (items == 0)
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
