// Mpat with nested critical sections (the shape the QPOR paper's benchmarks have, §6):
// k pairs of threads; A_i takes the global mutex g and, inside it, its pair's mutex
// p[i]; B_i takes p[i] alone. The issue-11 family "k pairs, global lock with a per-pair
// lock nested inside".
//   unfold check bench/mpat_nested.c -D K=5
// Maximal configurations: k! * 2^k (the order of the A's on g, and per pair which of
// A_i, B_i takes p[i] first).
#include <pthread.h>
#include <assert.h>

#ifndef K
#define K 3
#endif

pthread_mutex_t g = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t p[K];
int order[K], next_slot = 0, pair_count[K];

void *a_thread(void *arg) {
    long i = (long)arg;
    pthread_mutex_lock(&g);
    pthread_mutex_lock(&p[i]);
    pair_count[i]++;
    order[next_slot++] = (int)i;
    pthread_mutex_unlock(&p[i]);
    pthread_mutex_unlock(&g);
    return 0;
}

void *b_thread(void *arg) {
    long i = (long)arg;
    pthread_mutex_lock(&p[i]);
    pair_count[i]++;
    pthread_mutex_unlock(&p[i]);
    return 0;
}

int main(void) {
    pthread_t a[K], b[K];
    for (int i = 0; i < K; i++)
        pthread_mutex_init(&p[i], 0);
    for (long i = 0; i < K; i++) {
        pthread_create(&a[i], 0, a_thread, (void *)i);
        pthread_create(&b[i], 0, b_thread, (void *)i);
    }
    for (int i = 0; i < K; i++) {
        pthread_join(a[i], 0);
        pthread_join(b[i], 0);
    }
    assert(next_slot == K);
    for (int i = 0; i < K; i++)
        assert(pair_count[i] == 2);
    return 0;
}
