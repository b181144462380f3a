// The worker exits holding the mutex; main retries trylock forever, counting its
// attempts in a global: every iteration changes memory, so it is not a spin-wait (a
// retry loop that changes nothing is: spin_try_mutex_livelock.c). In race mode the
// count is no step, so the loop is a counting retry loop: its tries after the third
// fail without a step, and after 10 000 of them it is cut by an assumption that no
// thread will ever end (the worker is gone): a livelock at the loop (before counting
// polls were hidden, the execution ran to the step bound: `bound`).
// expect: verdict=defect kind=livelock line=24 flags=--max-steps=60
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
long attempts;

void *worker(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    pthread_join(t, 0);
    while (pthread_mutex_trylock(&m) != 0) {
        attempts++;
    }
    return 0;
}
