// mem_use_after_free.c fixed: main reads the result, then frees the job itself.
// expect: verdict=ok maximal=1
// Derivation: one create and one join, nothing shared between threads but the job,
// ordered by them: a single configuration.
#include <pthread.h>
#include <stdlib.h>

struct job { int input; int result; };

void *worker(void *arg) {
    struct job *j = arg;
    j->result = j->input * 2;
    return 0;
}

int main(void) {
    struct job *j = malloc(sizeof *j);
    j->input = 21;
    pthread_t t;
    pthread_create(&t, 0, worker, j);
    pthread_join(t, 0);
    int r = j->result;
    free(j);
    return r == 42 ? 0 : 1;
}
