// Older SV-COMP style: __VERIFIER_error and an undefined reach_error.
// expect: verdict=defect kind=assertion line=23
#include <pthread.h>
extern void __VERIFIER_error(void) __attribute__((__noreturn__));
extern void reach_error(void);

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int turn = 0;

void *worker(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    turn++;
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    pthread_mutex_lock(&m);
    if (turn == 1)
        __VERIFIER_error();
    if (turn == 2)
        reach_error();
    pthread_mutex_unlock(&m);
    pthread_join(t, 0);
    return 0;
}
