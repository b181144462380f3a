// A 512 MiB .bss written in every execution: each execution starts from zeros again
// (the reset drops the touched pages instead of copying 512 MiB back), and so does a
// 64 MiB heap block.
// expect: verdict=ok
#include <pthread.h>
#include <assert.h>
#include <stdlib.h>
char big[512 << 20];
char *heap;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int turn;
void *t(void *a) {
    long i = (long)a;
    pthread_mutex_lock(&m);
    assert(big[i << 20] == 0 && big[(i << 20) + 4096] == 0);
    big[i << 20] = 1;
    big[(i << 20) + 4096] = (char)++turn;
    pthread_mutex_unlock(&m);
    return 0;
}
int main(void) {
    heap = malloc(64 << 20);
    assert(heap[12345] == 0 && heap[(64 << 20) - 1] == 0);
    heap[12345] = heap[(64 << 20) - 1] = 1;
    pthread_t h[3];
    for (long i = 0; i < 3; i++) pthread_create(&h[i], 0, t, (void *)(i * 100 + 1));
    for (int i = 0; i < 3; i++) pthread_join(h[i], 0);
    assert(turn == 3);
    return 0;
}
