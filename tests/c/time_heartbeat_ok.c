// A worker stamps the time at every turn of its loop until main tells it to stop. The
// stamp is kept, so with a clock that moved at each reading the loop never repeated a
// state and was explored turn by turn up to the step bound (a false `bound` defect).
// The loop reads the clock between visible steps: its readings are frozen, time jumps
// once when it repeats, then it waits for `stop` like any spin.
// expect: verdict=ok
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>
atomic_int stop;
time_t last;
void *worker(void *arg) {
    (void)arg;
    while (!atomic_load(&stop)) {
        time_t now = time(NULL);
        (void)now;
    }
    return 0;
}
int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    atomic_store(&stop, 1);
    pthread_join(t, 0);
    return 0;
}
