// Two threads increment a counter under a spinlock (mapped onto a mutex); trylock
// fails with EBUSY only while the other thread holds it.
// expect: verdict=ok maximal=12
// Count: 12, the number of distinct traces dfs (every interleaving) also finds.
#include <pthread.h>
#include <errno.h>
#include <assert.h>

pthread_spinlock_t s;
int counter, extra;

void *worker(void *arg) {
    (void)arg;
    pthread_spin_lock(&s);
    counter++;
    pthread_spin_unlock(&s);
    int r = pthread_spin_trylock(&s);
    if (r == 0) {
        extra++;
        pthread_spin_unlock(&s);
    } else {
        assert(r == EBUSY);
    }
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_spin_init(&s, PTHREAD_PROCESS_PRIVATE);
    pthread_create(&a, 0, worker, 0);
    pthread_create(&b, 0, worker, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(counter == 2 && extra >= 1);
    pthread_spin_destroy(&s);
    return 0;
}
