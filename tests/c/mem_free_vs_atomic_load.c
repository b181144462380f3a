// One thread loads a heap counter atomically while another frees the block, with
// nothing ordering the two: a data race on the freed block in every execution, whichever
// runs first. The load is a scheduling point: it is checked for the free once performed
// (checked when reached, it missed a free made while the loader waited to be scheduled,
// and the default run said OK).
// expect: verdict=defect kind=data-race line=14|20
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
struct counter { atomic_int n; };
struct counter *c;
void *reader(void *arg) {
    (void)arg;
    return (void *)(long)atomic_load(&c->n);
}
void *freer(void *arg) {
    (void)arg;
    struct counter *p = c;
    free(p);
    return 0;
}
int main(void) {
    c = malloc(sizeof *c);
    atomic_init(&c->n, 1);
    pthread_t a, b;
    pthread_create(&a, 0, reader, 0);
    pthread_create(&b, 0, freer, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
