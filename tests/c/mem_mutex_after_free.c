// A worker locks a mutex that lives in a heap block main freed before creating it: the
// lock is a use after free (ordered after the free by the thread creation). Operations on
// synchronising objects are checked against freed blocks like memory accesses (before,
// the program passed).
// expect: verdict=defect kind=use-after-free line=13
#include <pthread.h>
#include <stdlib.h>
struct box { int value; pthread_mutex_t lock; };
struct box *b;
void *worker(void *arg) {
    (void)arg;
    struct box *p = b;
    pthread_mutex_lock(&p->lock);
    pthread_mutex_unlock(&p->lock);
    return 0;
}
int main(void) {
    b = malloc(sizeof *b);
    b->value = 1;
    pthread_mutex_init(&b->lock, 0);
    free(b);
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    pthread_join(t, 0);
    return 0;
}
