// An overflow on one schedule only: main sizes a buffer from `len` (1), then a worker
// raises `len` to 2 under the same mutex. When main takes the lock after the worker, it
// fills 2 ints of the 1-int buffer: the write of buf[1] (line 29) overflows. The two
// orders of the lock acquisitions are the two traces; every explorer must find the bad
// one.
// expect: verdict=defect kind=heap-buffer-overflow line=29
#include <pthread.h>
#include <stdlib.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int len = 1;

void *grow(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    len = 2;
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    int *buf = malloc(len * sizeof *buf);
    pthread_t t;
    pthread_create(&t, 0, grow, 0);
    pthread_mutex_lock(&m);
    int n = len;
    pthread_mutex_unlock(&m);
    for (int i = 0; i < n; i++)
        buf[i] = i;
    pthread_join(t, 0);
    free(buf);
    return 0;
}
