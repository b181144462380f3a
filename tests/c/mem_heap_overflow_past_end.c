// main fills an array of 4 ints and one more: the write of a[4] lands 0 bytes past the
// end of the 16-byte block, in the red zone after it (line 16), naming the allocation
// (line 13), the block's size and the offset.
// expect: verdict=defect kind=heap-buffer-overflow line=16
#include <pthread.h>
#include <stdlib.h>

void *worker(void *arg) { return arg; }

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    int *a = malloc(4 * sizeof *a);
    for (int i = 0; i < 4; i++)
        a[i] = i;
    a[4] = 4;
    pthread_join(t, 0);
    free(a);
    return 0;
}
