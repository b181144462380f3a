// A relay of K threads, each waiting for its turn (issue 10's benchmark: spin-waits
// against the same program with a blocking wait). Thread i waits until `turn == i`,
// marks its turn done (ordered after the previous thread's by the hand-off) and passes
// the turn on; main passes the turn to thread 0 after creating them all and checks. How a thread waits is chosen at compile
// time:
//   -D SPIN   `while (atomic_load(&turn) != i);` — a busy-wait (unfold blocks it until
//             `turn` is written: one execution per trace, none per iteration count);
//   -D COND   `pthread_cond_wait` under a mutex, woken by `pthread_cond_broadcast`.
//   unfold check bench/handoff.c -D SPIN -D K=4
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

#ifndef K
#define K 3
#endif
#if !defined(SPIN) && !defined(COND)
#define SPIN
#endif

int done[K];
#ifdef SPIN
atomic_int turn = -1;
#else
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
int turn = -1;
#endif

static void pass(int next) {
#ifdef SPIN
    atomic_store(&turn, next);
#else
    pthread_mutex_lock(&m);
    turn = next;
    pthread_cond_broadcast(&c);
    pthread_mutex_unlock(&m);
#endif
}

void *relay(void *arg) {
    int i = (int)(long)arg;
#ifdef SPIN
    while (atomic_load(&turn) != i) {
    }
#else
    pthread_mutex_lock(&m);
    while (turn != i)
        pthread_cond_wait(&c, &m);
    pthread_mutex_unlock(&m);
#endif
    /* Ordered after thread i - 1's turn by the hand-off itself: no lock needed. */
    assert(i == 0 || done[i - 1]);
    done[i] = 1;
    pass(i + 1);
    return 0;
}

int main(void) {
    pthread_t t[K];
    for (long i = 0; i < K; i++)
        pthread_create(&t[i], 0, relay, (void *)i);
    pass(0);
    for (int i = 0; i < K; i++)
        pthread_join(t[i], 0);
    for (int i = 0; i < K; i++)
        assert(done[i]);
    return 0;
}
