// Locking through a null pointer is reported as mutex misuse (the checker does not
// crash on it).
// expect: verdict=defect kind=mutex-misuse line=16
#include <pthread.h>

struct account {
    pthread_mutex_t *lock;
    int balance;
};

struct account acc;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *deposit(void *arg) {
    struct account *a = arg;
    pthread_mutex_lock(a->lock);
    a->balance++;
    pthread_mutex_unlock(a->lock);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, deposit, &acc); /* acc.lock was never set */
    pthread_join(t, 0);
    return 0;
}
