// The Indexer of Flanagan and Godefroid (POPL'05, Figure 1), as used in the source-sets /
// optimal-DPOR paper (JACM'17, Table 3): N threads (tid 1..N) insert MAX messages each
// into a shared hash table with compare-and-swap, probing the next entry on a collision.
//   unfold check bench/indexer.c -D N=12
// Messages collide only from 12 threads on (thread tid and tid + 11 send the same
// values): the JACM paper reports 8 traces for 12 threads and 4 096 for 15 under source-
// and optimal-DPOR (fewer than 12 threads: 1). Two probes of neighbouring entries share a
// memory word: QPOR orders them (every two accesses to a word), so the default algorithm
// hands over to optimal-DPOR, which lets accesses to disjoint bytes commute.
#include <pthread.h>
#include <stdatomic.h>

#ifndef N
#define N 12
#endif
#define SIZE 128
#define MAX 4

atomic_int table[SIZE];

static int hash(int w) { return (w * 7) % SIZE; }

static void *indexer(void *arg) {
    int tid = (int)(long)arg;
    for (int m = 1; m <= MAX; m++) {
        int w = m * 11 + tid; // getmsg()
        int h = hash(w);
        int zero = 0;
        while (!atomic_compare_exchange_strong(&table[h], &zero, w)) {
            zero = 0;
            h = (h + 1) % SIZE;
        }
    }
    return 0;
}

int main(void) {
    pthread_t t[N];
    for (long i = 0; i < N; i++)
        pthread_create(&t[i], 0, indexer, (void *)(i + 1));
    for (int i = 0; i < N; i++)
        pthread_join(t[i], 0);
    return 0;
}
