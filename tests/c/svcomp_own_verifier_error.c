// A program that defines __VERIFIER_error itself (a stub, to compile natively): calling
// it is still the error, at the call, even though its body returns.
// expect: verdict=defect kind=assertion line=24
#include <pthread.h>

void __VERIFIER_error(void) {}

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int hits;

void *bump(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    hits++;
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, bump, 0);
    pthread_mutex_lock(&m);
    if (hits == 1)
        __VERIFIER_error();
    pthread_mutex_unlock(&m);
    pthread_join(t, 0);
    return 0;
}
