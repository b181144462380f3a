// An object is retired (freed) before the thread that still polls its atomic flag is
// started: the atomic load (line 12) touches freed memory; thread creation orders the
// free (line 19) before it, so it is a use after free.
// expect: verdict=defect kind=use-after-free line=12
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

struct obj { atomic_int ready; };

void *poller(void *arg) {
    return (void *)(long)atomic_load(&((struct obj *)arg)->ready);
}

int main(void) {
    struct obj *o = malloc(sizeof *o);
    atomic_init(&o->ready, 1);
    pthread_t t;
    free(o);
    pthread_create(&t, 0, poller, o);
    pthread_join(t, 0);
    return 0;
}
