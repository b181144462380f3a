// Growing a buffer that an error path already freed: realloc of a freed block is a
// double free (line 14; the first free at line 11).
// expect: verdict=defect kind=double-free line=14
#include <pthread.h>
#include <stdlib.h>

int *grow(int *buf, int n, int fail) {
    (void)n;
    if (fail) {
        // The error path frees the buffer but the caller keeps using its pointer.
        free(buf);
        return buf;
    }
    return realloc(buf, (size_t)n * 2 * sizeof *buf);
}

void *worker(void *arg) {
    (void)arg;
    int *buf = malloc(4 * sizeof *buf);
    buf = grow(buf, 4, 1);
    buf = grow(buf, 4, 0);
    return buf;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    pthread_join(t, 0);
    return 0;
}
