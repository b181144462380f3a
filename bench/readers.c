// readers(N), the writer-readers program of the source-sets / optimal-DPOR paper
// (JACM'17, Figure 13, Figure 1 generalised; Table 4): a writer sets x, and each of N
// readers reads an entry of its own, then x.
//   unfold check bench/readers.c -D N=8
// Each reader reads x before or after the write: 2^N traces under read-read
// independence (Table 4: 4, 256, 8 192 for N = 2, 8, 13 under source- and optimal-DPOR;
// classic DPOR 5, 3 281, 797 162 executions in the paper's implementation).
#include <pthread.h>
#include <stdatomic.h>

#ifndef N
#define N 8
#endif

atomic_int x;
atomic_int entry[N];

static void *writer(void *arg) {
    (void)arg;
    atomic_store(&x, 1);
    return 0;
}

static void *reader(void *arg) {
    long i = (long)arg;
    (void)atomic_load(&entry[i]);
    (void)atomic_load(&x);
    return 0;
}

int main(void) {
    pthread_t w, r[N];
    pthread_create(&w, 0, writer, 0);
    for (long i = 0; i < N; i++)
        pthread_create(&r[i], 0, reader, (void *)i);
    pthread_join(w, 0);
    for (int i = 0; i < N; i++)
        pthread_join(r[i], 0);
    return 0;
}
