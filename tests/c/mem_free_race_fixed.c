// mem_free_race.c fixed: main frees the job after joining the worker.
// expect: verdict=ok maximal=1
// Derivation: only the worker uses m (lock, unlock): one configuration.
#include <pthread.h>
#include <stdlib.h>

struct job { int input; };
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *worker(void *arg) {
    struct job *j = arg;
    pthread_mutex_lock(&m);
    pthread_mutex_unlock(&m);
    return (void *)(long)j->input;
}

int main(void) {
    struct job *j = malloc(sizeof *j);
    j->input = 21;
    pthread_t t;
    pthread_create(&t, 0, worker, j);
    pthread_join(t, 0);
    free(j);
    return 0;
}
