// mem_double_free.c fixed: the decrement and the test are one critical section, so
// exactly one thread sees the count reach zero and frees the object.
// expect: verdict=ok maximal=2
// Derivation: each thread locks m once; the two critical sections are ordered either
// way: 2 configurations.
#include <pthread.h>
#include <stdlib.h>

struct obj { int data; };
int refs;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void release(struct obj *o) {
    pthread_mutex_lock(&m);
    int last = --refs == 0;
    pthread_mutex_unlock(&m);
    if (last)
        free(o);
}

void *user(void *arg) {
    release(arg);
    return 0;
}

int main(void) {
    struct obj *o = malloc(sizeof *o);
    refs = 2;
    pthread_t a, b;
    pthread_create(&a, 0, user, o);
    pthread_create(&b, 0, user, o);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
