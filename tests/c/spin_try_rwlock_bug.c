// spin_try_rwlock.c where main expects to read the writer's increment: it may take the
// read lock first (with its tryrdlock retry loop), and the assertion fails.
// expect: verdict=defect kind=assertion line=26
#include <pthread.h>
#include <assert.h>

pthread_rwlock_t l = PTHREAD_RWLOCK_INITIALIZER;
int counter;

void *writer(void *arg) {
    (void)arg;
    while (pthread_rwlock_trywrlock(&l) != 0)
        ;
    counter++;
    pthread_rwlock_unlock(&l);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, writer, 0);
    while (pthread_rwlock_tryrdlock(&l) != 0)
        ;
    int c = counter;
    pthread_rwlock_unlock(&l);
    assert(c == 1);
    pthread_join(t, 0);
    return 0;
}
