// Thread cancellation is not supported: refused by name before exploring.
// expect: refused=pthread_cancel
#include <pthread.h>

void *worker(void *arg) {
    (void)arg;
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    pthread_cancel(t);
    pthread_join(t, 0);
    return 0;
}
