// The performance target's "small program": 3 threads, a few lock operations each.
// Two mutexes; each worker does NOPS critical sections alternating between them.
#include <pthread.h>
#include <assert.h>

#ifndef NOPS
#define NOPS 2
#endif

pthread_mutex_t m[2] = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER};
int counter[2];

void *worker(void *arg) {
    long id = (long)arg;
    for (int i = 0; i < NOPS; i++) {
        int k = (int)((id + i) % 2);
        pthread_mutex_lock(&m[k]);
        counter[k]++;
        pthread_mutex_unlock(&m[k]);
    }
    return 0;
}

int main(void) {
    pthread_t t[3];
    for (long i = 0; i < 3; i++)
        pthread_create(&t[i], 0, worker, (void *)i);
    for (int i = 0; i < 3; i++)
        pthread_join(t[i], 0);
    assert(counter[0] + counter[1] == 3 * NOPS);
    return 0;
}
