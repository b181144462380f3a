// lastzero(N), the source-sets / optimal-DPOR paper's Figure 11 (JACM'17, Table 4):
// N + 1 threads share an array of N + 1 zeros; thread 0 searches it for the last zero
// from the top, thread j (1..N) writes array[j - 1] + 1 into array[j].
//   unfold check bench/lastzero.c -D N=5
// Thread 0's reads depend on which writes came first, so source-DPOR meets sleep-set
// blocked executions that optimal-DPOR's wakeup trees avoid. Table 4: optimal-DPOR
// explores 64 traces for N = 5, 3 328 for N = 10, 147 456 for N = 15 (source-DPOR 79 and
// 7 204 executions, classic DPOR 241 and 53 198, in the paper's implementation).
#include <pthread.h>
#include <stdatomic.h>

#ifndef N
#define N 5
#endif

atomic_int array[N + 1];

static void *search(void *arg) {
    (void)arg;
    int i;
    for (i = N; atomic_load(&array[i]) != 0; i--)
        ;
    return 0;
}

static void *increment(void *arg) {
    long j = (long)arg;
    atomic_store(&array[j], atomic_load(&array[j - 1]) + 1);
    return 0;
}

int main(void) {
    pthread_t t[N + 1];
    pthread_create(&t[0], 0, search, 0);
    for (long j = 1; j <= N; j++)
        pthread_create(&t[j], 0, increment, (void *)j);
    for (int j = 0; j <= N; j++)
        pthread_join(t[j], 0);
    return 0;
}
