// A wait loop that sets a location and puts it back on every pass: the pass's net
// effect is nothing, but each of its writes changes the value (each write is judged on
// its own, once done), and another thread could read the 1 in between. So the pass is
// not pure and the loop is not a wait (were the pass taken as pure, the loop would wait
// for the flag and the verdict would be `ok`). In race mode its writes are no steps, so
// it polls like a loop that counts: its polls after the 17th run without scheduling
// points and the verdict is `incomplete` (before counting polls were hidden, the
// schedule that never runs the setter ran to the step bound: `bound`).
// expect: verdict=incomplete flags=--max-steps=60
#include <pthread.h>
#include <stdatomic.h>

atomic_int flag;
int busy;

static void *poller(void *arg) {
    (void)arg;
    while (!atomic_load(&flag)) {
        busy = 1;
        busy = 0;
    }
    return 0;
}

static void *setter(void *arg) {
    (void)arg;
    atomic_store(&flag, 1);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, poller, 0);
    pthread_create(&b, 0, setter, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
