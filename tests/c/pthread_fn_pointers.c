// The pthread API through function pointers and parenthesised names, which the
// header's function-like macros do not expand: a lock-order inversion made only of such
// calls must still be seen (before, the calls were refused as unsupported).
// expect: verdict=defect kind=deadlock line=23|30
#include <pthread.h>

struct lock_ops {
    int (*lock)(pthread_mutex_t *);
    int (*unlock)(pthread_mutex_t *);
};

static const struct lock_ops ops = {pthread_mutex_lock, pthread_mutex_unlock};
static int (*const create)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *) = pthread_create;
static int (*const join)(pthread_t, void **) = pthread_join;

pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t b = PTHREAD_MUTEX_INITIALIZER;
int shared;

void *t1(void *arg) {
    (void)arg;
    ops.lock(&a);
    ops.lock(&b);
    shared++;
    ops.unlock(&b);
    ops.unlock(&a);
    return 0;
}

void *t2(void *arg) {
    (void)arg;
    (pthread_mutex_lock)(&b);
    (pthread_mutex_lock)(&a);
    shared++;
    (pthread_mutex_unlock)(&a);
    (pthread_mutex_unlock)(&b);
    return 0;
}

int main(void) {
    pthread_t x, y;
    create(&x, 0, t1, 0);
    create(&y, 0, t2, 0);
    join(x, 0);
    join(y, 0);
    return shared == 2 ? 0 : 1;
}
