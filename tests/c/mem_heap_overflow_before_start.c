// A worker reads the element before the start of the buffer it was handed (an
// off-by-one in a backwards loop): the read of b[-1] (line 12) lands in the block's
// header, 4 bytes before its start.
// expect: verdict=defect kind=heap-buffer-overflow line=12
#include <pthread.h>
#include <stdlib.h>

void *worker(void *arg) {
    int *b = arg;
    long s = 0;
    for (int i = 2; i >= -1; i--)
        s += b[i];
    return (void *)s;
}

int main(void) {
    int *b = calloc(3, sizeof *b);
    pthread_t t;
    pthread_create(&t, 0, worker, b);
    pthread_join(t, 0);
    free(b);
    return 0;
}
