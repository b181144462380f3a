// A reader that upgrades to writer without releasing its read lock waits for itself:
// a deadlock (POSIX: the write lock cannot be granted while a read lock is held).
// expect: verdict=defect kind=deadlock line=14
#include <pthread.h>

pthread_rwlock_t l = PTHREAD_RWLOCK_INITIALIZER;
int value;

void *updater(void *arg) {
    (void)arg;
    pthread_rwlock_rdlock(&l);
    if (value == 0) {
        /* upgrade: wrong, the read lock is still held */
        pthread_rwlock_wrlock(&l);
        value = 1;
    }
    pthread_rwlock_unlock(&l);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, updater, 0);
    pthread_join(t, 0);
    return 0;
}
