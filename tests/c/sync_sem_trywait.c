// sem_trywait fails with EAGAIN when the value is zero and sem_getvalue reads the
// value: two threads try to take a semaphore of value 1, exactly one succeeds.
// expect: verdict=ok maximal=6
// Derivation: either worker tries first and wins (2 ways). If the other tries before
// the winner's post it fails, and the two critical sections on m are ordered either
// way: 2 x 2 = 4 traces; if it tries after the post it wins too, and everything else
// is ordered by that: 2 traces. 6 in all.
#include <pthread.h>
#include <semaphore.h>
#include <errno.h>
#include <assert.h>

sem_t s;
int wins, busy;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *worker(void *arg) {
    (void)arg;
    if (sem_trywait(&s) == 0) {
        pthread_mutex_lock(&m);
        wins++;
        pthread_mutex_unlock(&m);
        sem_post(&s);
    } else {
        assert(errno == EAGAIN);
        pthread_mutex_lock(&m);
        busy++;
        pthread_mutex_unlock(&m);
    }
    return 0;
}

int main(void) {
    pthread_t a, b;
    sem_init(&s, 0, 1);
    pthread_create(&a, 0, worker, 0);
    pthread_create(&b, 0, worker, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    int v;
    sem_getvalue(&s, &v);
    assert(v == 1);
    assert(wins >= 1 && wins + busy == 2);
    sem_destroy(&s);
    return 0;
}
