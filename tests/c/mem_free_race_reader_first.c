// The worker reads the job at once (it runs as soon as it is created), then main frees
// it without waiting: the free (line 20) races with the read (line 11) that ran before
// it, and the free is where the race is seen.
// expect: verdict=defect kind=data-race line=20
#include <pthread.h>
#include <stdlib.h>

struct job { int input; };

void *worker(void *arg) {
    int x = ((struct job *)arg)->input;
    return (void *)(long)x;
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
