// tls_counter.c with a plain global instead of a __thread variable: the threads share
// the counter, and the check fails when the other thread's increments fall between a
// thread's reset and its check (a sequential order of the two threads passes).
// The check reads the counter under the lock: reading it outside would be a data race.
// expect: verdict=defect kind=assertion line=26
#include <pthread.h>
#include <assert.h>

#define N 2
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int counter;

void *worker(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    counter = 0;
    pthread_mutex_unlock(&m);
    for (int i = 0; i < N; i++) {
        pthread_mutex_lock(&m);
        counter++;
        pthread_mutex_unlock(&m);
    }
    pthread_mutex_lock(&m);
    int seen = counter;
    pthread_mutex_unlock(&m);
    assert(seen == N);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, worker, 0);
    pthread_create(&b, 0, worker, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
