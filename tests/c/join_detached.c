// Joining a thread created detached is a misuse (its identity may already be reused).
// expect: verdict=defect kind=sync-misuse line=19
#include <pthread.h>

void *worker(void *arg) {
    (void)arg;
    return 0;
}

int main(void) {
    pthread_attr_t at;
    pthread_t t;
    pthread_attr_init(&at);
    pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
    pthread_create(&t, &at, worker, 0);
    pthread_attr_destroy(&at);
    // Some unrelated work before the join.
    pthread_attr_init(&at);
    pthread_join(t, 0);
    return 0;
}
