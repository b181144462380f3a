// A thread spins on a flag nobody ever sets: every other thread is blocked (main joins
// the spinner), so this is a livelock, reported with the location spun on.
// expect: verdict=defect kind=livelock line=9
#include <pthread.h>
#include <stdatomic.h>

atomic_int go;

void *waiter(void *arg) { (void)arg; while (!atomic_load(&go)) { } return 0; }

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, waiter, 0);
    pthread_join(t, 0);
    return 0;
}
