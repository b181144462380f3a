// Two readers poll a flag under a read-write lock and nobody sets it. A read unlock is
// never weak, so each poller's wait must be one the other's unlocks wake, not an
// assumption: as an assumption, optimal- and source-DPOR reported `ok` (16 traces) on
// this never-ending program. The pollers now wake each other until the step bound.
// expect: verdict=defect kind=bound flags=--max-steps=2000
#include <pthread.h>

pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
int flag;

void *poller(void *arg) {
    (void)arg;
    for (;;) {
        pthread_rwlock_rdlock(&rw);
        int f = flag;
        pthread_rwlock_unlock(&rw);
        if (f)
            break;
    }
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, poller, 0);
    pthread_create(&b, 0, poller, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
