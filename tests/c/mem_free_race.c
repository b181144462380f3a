// main frees the job while the worker may still read it: the free races with the read
// (a data race on freed memory). Whichever runs first, the report names the free
// (line 24) and the read (line 16).
// expect: verdict=defect kind=data-race line=16|24
#include <pthread.h>
#include <stdlib.h>

struct job { int input; };
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *worker(void *arg) {
    struct job *j = arg;
    // A visible step first, so that some schedules run main's free before the read.
    pthread_mutex_lock(&m);
    pthread_mutex_unlock(&m);
    return (void *)(long)j->input;
}

int main(void) {
    struct job *j = malloc(sizeof *j);
    j->input = 21;
    pthread_t t;
    pthread_create(&t, 0, worker, j);
    free(j);
    pthread_join(t, 0);
    return 0;
}
