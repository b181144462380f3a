// The QPOR paper's Figure 1, mutex-only (the unfolding with 2n maximal configurations
// on which k = 1 partial alternatives and source sets meet sleep-set-blocked executions
// that grow with n, and k >= 2 / optimal alternatives meet none):
//   - n writer threads, writer i: lock(m_i); x_i = 7; unlock(m_i);
//   - a count thread incrementing c n-1 times, each under mutex mc;
//   - a master thread reading c into i under mc, then writing x_i under m_i.
//   unfold check bench/fig1.c -D N=4
// Maximal configurations: 2n (master reads c = 0 .. n-1; writer i and the master then
// take m_i in either order; the other writers' lock/unlock pairs are uncontended).
#include <pthread.h>
#include <assert.h>

#ifndef N
#define N 3
#endif

pthread_mutex_t m[N];
int x[N];
pthread_mutex_t mc = PTHREAD_MUTEX_INITIALIZER;
int c = 0;

void *writer(void *arg) {
    long i = (long)arg;
    pthread_mutex_lock(&m[i]);
    x[i] = 7;
    pthread_mutex_unlock(&m[i]);
    return 0;
}

void *count(void *arg) {
    (void)arg;
    for (int j = 0; j < N - 1; j++) {
        pthread_mutex_lock(&mc);
        c = c + 1;
        pthread_mutex_unlock(&mc);
    }
    return 0;
}

void *master(void *arg) {
    (void)arg;
    pthread_mutex_lock(&mc);
    int i = c;
    pthread_mutex_unlock(&mc);
    assert(0 <= i && i < N);
    pthread_mutex_lock(&m[i]);
    x[i] = 0;
    pthread_mutex_unlock(&m[i]);
    return 0;
}

int main(void) {
    pthread_t w[N], tc, tm;
    for (int i = 0; i < N; i++)
        pthread_mutex_init(&m[i], 0);
    for (long i = 0; i < N; i++)
        pthread_create(&w[i], 0, writer, (void *)i);
    pthread_create(&tc, 0, count, 0);
    pthread_create(&tm, 0, master, 0);
    for (int i = 0; i < N; i++)
        pthread_join(w[i], 0);
    pthread_join(tc, 0);
    pthread_join(tm, 0);
    return 0;
}
