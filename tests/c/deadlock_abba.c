// Lock-order inversion: t1 takes a then b, t2 takes b then a.
// expect: verdict=defect kind=deadlock line=11|20
#include <pthread.h>

pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t b = PTHREAD_MUTEX_INITIALIZER;

void *t1(void *arg) {
    (void)arg;
    pthread_mutex_lock(&a);
    pthread_mutex_lock(&b);
    pthread_mutex_unlock(&b);
    pthread_mutex_unlock(&a);
    return 0;
}

void *t2(void *arg) {
    (void)arg;
    pthread_mutex_lock(&b);
    pthread_mutex_lock(&a);
    pthread_mutex_unlock(&a);
    pthread_mutex_unlock(&b);
    return 0;
}

int main(void) {
    pthread_t x, y;
    pthread_create(&x, 0, t1, 0);
    pthread_create(&y, 0, t2, 0);
    pthread_join(x, 0);
    pthread_join(y, 0);
    return 0;
}
