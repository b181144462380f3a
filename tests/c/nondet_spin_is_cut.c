// A thread waits for a nondeterministic true. Every later draw keeps the default (false)
// once the first draws have each taken both values, so one path would spin forever
// without a visible step: a thread's 101st draw ends its path instead (no time-out, no
// bound, no deadlock reported for main waiting on it), and the verdict says the
// search was cut.
// expect: verdict=incomplete
#include <assert.h>
#include <pthread.h>
#include <stdbool.h>

extern bool __VERIFIER_nondet_bool(void);

int done;

void *waiter(void *arg) {
    while (!__VERIFIER_nondet_bool())
        ;
    done = 1;
    return arg;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, waiter, 0);
    pthread_join(t, 0);
    assert(done == 1);
    return 0;
}
