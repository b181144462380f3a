// mpat_nested with a long shared prefix: K pairs of threads behind a global lock with a
// per-pair lock nested inside, each thread first taking a private lock L times. Every
// execution repeats a long prefix of steps that commute, which a persistent worker puts
// back from a checkpoint instead of running it again (`--checkpoints`,
// docs/execution-cost.md round 14).
//   unfold check bench/long_prefix.c -D K=5 -D L=30
// Maximal configurations: K! * 2^K, as without the private locks (the order of the A's
// on g, and per pair which thread takes p[i] first).
#include <pthread.h>
#include <assert.h>

#ifndef K
#define K 4
#endif
#ifndef L
#define L 12
#endif

pthread_mutex_t g = PTHREAD_MUTEX_INITIALIZER, p[K], own[2 * K];
int count[K], order[K], slot;

void *a_thread(void *arg) {
    long i = (long)arg;
    for (int j = 0; j < L; j++) {
        pthread_mutex_lock(&own[i]);
        pthread_mutex_unlock(&own[i]);
    }
    pthread_mutex_lock(&g);
    pthread_mutex_lock(&p[i]);
    count[i]++;
    order[slot++] = (int)i;
    pthread_mutex_unlock(&p[i]);
    pthread_mutex_unlock(&g);
    return 0;
}

void *b_thread(void *arg) {
    long i = (long)arg;
    for (int j = 0; j < L; j++) {
        pthread_mutex_lock(&own[K + i]);
        pthread_mutex_unlock(&own[K + i]);
    }
    pthread_mutex_lock(&p[i]);
    count[i]++;
    pthread_mutex_unlock(&p[i]);
    return 0;
}

int main(void) {
    pthread_t a[K], b[K];
    for (int i = 0; i < K; i++)
        pthread_mutex_init(&p[i], 0);
    for (int i = 0; i < 2 * K; i++)
        pthread_mutex_init(&own[i], 0);
    for (long i = 0; i < K; i++) {
        pthread_create(&a[i], 0, a_thread, (void *)i);
        pthread_create(&b[i], 0, b_thread, (void *)i);
    }
    for (int i = 0; i < K; i++) {
        pthread_join(a[i], 0);
        pthread_join(b[i], 0);
    }
    assert(slot == K);
    for (int i = 0; i < K; i++)
        assert(count[i] == 2);
    return 0;
}
