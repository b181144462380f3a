// Two threads wait on one condition variable with different mutexes at the same time
// (each waits for its own flag, guarded by its own mutex): misuse (POSIX leaves it
// undefined), found in the schedule where both wait.
// expect: verdict=defect kind=sync-misuse line=19
#include <pthread.h>

struct waiter {
    pthread_mutex_t m;
    int ready;
};

struct waiter w1 = {PTHREAD_MUTEX_INITIALIZER, 0}, w2 = {PTHREAD_MUTEX_INITIALIZER, 0};
pthread_cond_t c = PTHREAD_COND_INITIALIZER;

void *waiter(void *arg) {
    struct waiter *w = arg;
    pthread_mutex_lock(&w->m);
    while (!w->ready)
        pthread_cond_wait(&c, &w->m);
    pthread_mutex_unlock(&w->m);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, waiter, &w1);
    pthread_create(&b, 0, waiter, &w2);
    struct waiter *ws[2] = {&w1, &w2};
    for (int i = 0; i < 2; i++) {
        pthread_mutex_lock(&ws[i]->m);
        ws[i]->ready = 1;
        pthread_cond_broadcast(&c);
        pthread_mutex_unlock(&ws[i]->m);
    }
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
