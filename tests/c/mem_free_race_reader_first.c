// The worker reads the job at once (it runs as soon as it is created), then main frees
// it without waiting: the free (line 21) races with the read (line 12) that ran before
// it. The free is where the race is seen; it is reported as the read's, as when the read
// comes after the free, so that both orders make one defect.
// expect: verdict=defect kind=data-race line=12
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
