// A check-then-act race: each thread reads the balance in one critical section and
// writes it back in another, so an update can be lost.
// expect: verdict=defect kind=assertion line=29
#include <pthread.h>
#include <assert.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int balance = 0;

void *deposit(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    int b = balance;
    pthread_mutex_unlock(&m);
    pthread_mutex_lock(&m);
    balance = b + 1;
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, deposit, 0);
    pthread_create(&b, 0, deposit, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    pthread_mutex_lock(&m);
    int final = balance;
    assert(final == 2);
    pthread_mutex_unlock(&m);
    return 0;
}
