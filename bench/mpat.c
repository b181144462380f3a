// The "mpat" pattern (QPOR Table 1, "Mpat(k)", 2k+1 threads): k pairs of threads; in
// pair i, thread A_i and thread B_i share a private mutex p[i], and every A_i also
// takes one global mutex g.
//   unfold check bench/mpat.c -D K=4
// Maximal configurations: k! * 2^k — the order of the k critical sections on g (k!)
// times, independently for each pair, which of A_i and B_i takes p[i] first (2^k).
#include <pthread.h>
#include <assert.h>

#ifndef K
#define K 3
#endif

pthread_mutex_t g = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t p[K];
int owner_order[K], next_slot = 0, pair_count[K];

void *a_thread(void *arg) {
    long i = (long)arg;
    pthread_mutex_lock(&p[i]);
    pair_count[i]++;
    pthread_mutex_unlock(&p[i]);
    pthread_mutex_lock(&g);
    owner_order[next_slot++] = (int)i;
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
