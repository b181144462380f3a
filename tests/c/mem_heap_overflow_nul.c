// The classic off-by-one: a copy of a 12-character name into malloc(strlen) bytes, the
// terminating NUL written one past the end (line 17). The block's last granule is only
// partly the block's (12 of 16 bytes): the byte lies in the granule, not in a red zone,
// and is reported all the same.
// expect: verdict=defect kind=heap-buffer-overflow line=17
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

const char *name = "worker-three";

void *worker(void *arg) {
    size_t n = strlen(name);
    char *copy = malloc(n);
    for (size_t i = 0; i < n; i++)
        copy[i] = name[i];
    copy[n] = 0;
    free(copy);
    return arg;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    pthread_join(t, 0);
    return 0;
}
