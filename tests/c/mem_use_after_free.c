// A worker frees the job it was handed; main reads the result after joining it: a use
// after free (the free happens before the read: join orders them), naming the
// allocation (line 18), the free (line 13) and the read (line 23).
// expect: verdict=defect kind=use-after-free line=23
#include <pthread.h>
#include <stdlib.h>

struct job { int input; int result; };

void *worker(void *arg) {
    struct job *j = arg;
    j->result = j->input * 2;
    free(j);
    return 0;
}

int main(void) {
    struct job *j = malloc(sizeof *j);
    j->input = 21;
    pthread_t t;
    pthread_create(&t, 0, worker, j);
    pthread_join(t, 0);
    return j->result == 42 ? 0 : 1;
}
