// Each thread increments its own __thread counter N times (with a critical section in
// between, so the increments of the two threads interleave) and checks it reached N;
// main's copy stays 0. With one shared copy the second thread would see up to 2N.
// expect: verdict=ok maximal=6
// Derivation: only the operations on m are dependent across threads. Each worker runs
// N=2 critical sections: the orders of 2+2 sections on m are 4!/(2!2!) = 6 traces.
#include <pthread.h>
#include <assert.h>

#define N 2
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
__thread int counter;
int *where[2];

void *worker(void *arg) {
    long id = (long)arg;
    where[id] = &counter;
    for (int i = 0; i < N; i++) {
        pthread_mutex_lock(&m);
        counter++;
        pthread_mutex_unlock(&m);
    }
    assert(counter == N);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, worker, (void *)0);
    pthread_create(&b, 0, worker, (void *)1);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(counter == 0);
    assert(where[0] != where[1] && where[0] != &counter && where[1] != &counter);
    return 0;
}
