// A thread-pool "poke"/"poll" pattern (QPOR Table 1, "Pol(n,r)"): THREADS pool threads
// each poll a shared work counter ROUNDS times (lock, look, unlock); a poker thread
// pokes the pool by adding work under the same mutex, and each pool thread that finds
// work takes one unit and records it in its own slot under its own mutex, which main
// inspects at the end.
//   unfold check bench/poke.c -D THREADS=3 -D ROUNDS=2
#include <pthread.h>
#include <assert.h>

#ifndef THREADS
#define THREADS 3
#endif
#ifndef ROUNDS
#define ROUNDS 2
#endif
#ifndef POKES
#define POKES 2
#endif

pthread_mutex_t pool = PTHREAD_MUTEX_INITIALIZER;
int work = 0, poked = 0;
pthread_mutex_t slot_lock[THREADS];
int taken[THREADS];

void *pool_thread(void *arg) {
    long id = (long)arg;
    for (int r = 0; r < ROUNDS; r++) {
        pthread_mutex_lock(&pool);
        int mine = work > 0;
        if (mine)
            work--;
        assert(work >= 0);
        pthread_mutex_unlock(&pool);
        if (mine) {
            pthread_mutex_lock(&slot_lock[id]);
            taken[id]++;
            pthread_mutex_unlock(&slot_lock[id]);
        }
    }
    return 0;
}

void *poker(void *arg) {
    (void)arg;
    for (int i = 0; i < POKES; i++) {
        pthread_mutex_lock(&pool);
        work++;
        poked++;
        pthread_mutex_unlock(&pool);
    }
    return 0;
}

int main(void) {
    pthread_t t[THREADS], p;
    for (int i = 0; i < THREADS; i++)
        pthread_mutex_init(&slot_lock[i], 0);
    pthread_create(&p, 0, poker, 0);
    for (long i = 0; i < THREADS; i++)
        pthread_create(&t[i], 0, pool_thread, (void *)i);
    pthread_join(p, 0);
    int total = 0;
    for (int i = 0; i < THREADS; i++) {
        pthread_join(t[i], 0);
        total += taken[i];
    }
    assert(total + work == poked);
    return 0;
}
