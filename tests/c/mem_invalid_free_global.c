// A pool hands out a static buffer when malloc is not wanted, and its release frees
// whatever it gets: free of a global (line 14).
// expect: verdict=defect kind=invalid-free line=14
#include <pthread.h>
#include <stdlib.h>

char fallback[64];

char *get(int heap) { return heap ? malloc(64) : fallback; }

void *worker(void *arg) {
    char *b = get(arg != 0);
    b[0] = 1;
    free(b);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, worker, (void *)1);
    pthread_create(&b, 0, worker, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
