// Joining a thread after pthread_detach is a misuse, as for one created detached: the
// thread is no longer joinable, whether or not it has ended (here it may have).
// expect: verdict=defect kind=sync-misuse line=15
#include <pthread.h>

void *worker(void *arg) {
    (void)arg;
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    pthread_detach(t);
    pthread_join(t, 0);
    return 0;
}
