// Two threads increment a counter under a mutex; main joins both and checks it.
// expect: verdict=ok maximal=2
// Derivation: the only dependent actions across threads are the operations on m. Each
// worker does lock(m); unlock(m). The two critical sections are ordered one way or the
// other: 2 Mazurkiewicz traces (create/join order is fixed by causality).
#include <pthread.h>
#include <assert.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int counter;

void *worker(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    counter++;
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
