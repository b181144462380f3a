// A cleanup routine frees whatever it is given, and one caller hands it a local
// variable: free of a pointer to a thread's stack (line 9).
// expect: verdict=defect kind=invalid-free line=9
#include <pthread.h>
#include <stdlib.h>

void cleanup(int *p) {
    *p = 0;
    free(p);
}

void *worker(void *arg) {
    (void)arg;
    int *heap = malloc(sizeof *heap);
    cleanup(heap);
    int local = 1;
    cleanup(&local);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    pthread_join(t, 0);
    return 0;
}
