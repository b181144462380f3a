// The file-system example of Flanagan and Godefroid, POPL'05 (Figure 7), as used in
// the source-sets / optimal-DPOR paper (JACM'17, Table 3): THREADS threads each take the
// lock of inode tid % NUMINODE and, if the inode has no block yet, search the block
// table from block (2i) % NUMBLOCKS for a free one, each block under its own lock.
//   unfold check bench/filesystem.c -D THREADS=14
// Threads conflict only when they share a block lock; the JACM paper reports 2, 8, 32
// and 64 distinct traces for 14, 16, 18 and 19 threads (fewer than 14 threads: 1).
#include <pthread.h>
#include <assert.h>

#ifndef THREADS
#define THREADS 14
#endif
#define NUMBLOCKS 26
#define NUMINODE 32

pthread_mutex_t locki[NUMINODE];
pthread_mutex_t lockb[NUMBLOCKS];
int inode[NUMINODE];
int busy[NUMBLOCKS];

void *fs_thread(void *arg) {
    long tid = (long)arg;
    int i = tid % NUMINODE;
    pthread_mutex_lock(&locki[i]);
    if (inode[i] == 0) {
        int b = (i * 2) % NUMBLOCKS;
        for (;;) {
            pthread_mutex_lock(&lockb[b]);
            if (!busy[b]) {
                busy[b] = 1;
                inode[i] = b + 1;
                pthread_mutex_unlock(&lockb[b]);
                break;
            }
            pthread_mutex_unlock(&lockb[b]);
            b = (b + 1) % NUMBLOCKS;
        }
    }
    pthread_mutex_unlock(&locki[i]);
    return 0;
}

int main(void) {
    pthread_t t[THREADS];
    for (int i = 0; i < NUMINODE; i++)
        pthread_mutex_init(&locki[i], 0);
    for (int i = 0; i < NUMBLOCKS; i++)
        pthread_mutex_init(&lockb[i], 0);
    for (long i = 0; i < THREADS; i++)
        pthread_create(&t[i], 0, fs_thread, (void *)i);
    for (int i = 0; i < THREADS; i++)
        pthread_join(t[i], 0);
    return 0;
}
