// Reference counting with the decrement and the test in two critical sections: both
// threads can see the count at zero and both free the object (double free at line 20,
// the first free at the same line by the other thread).
// expect: verdict=defect kind=double-free line=20
#include <pthread.h>
#include <stdlib.h>

struct obj { int data; };
int refs;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void release(struct obj *o) {
    pthread_mutex_lock(&m);
    refs--;
    pthread_mutex_unlock(&m);
    pthread_mutex_lock(&m);
    int last = refs == 0;
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
