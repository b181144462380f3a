// The case that fails needs the value 2, which --nondet lists (the draw is in main, before
// any thread: its key is main's first draw).
// expect: verdict=defect kind=assertion line=20 flags=--nondet=0,1,2
#include <assert.h>
#include <pthread.h>

extern unsigned int __VERIFIER_nondet_uint(void);

int mode;

void *worker(void *arg) {
    switch (mode) {
    case 0:
    case 1:
        break;
    default:
        // Only mode 2 gets here, and only before main's write below.
        {
            int seen = mode;
            assert(seen != 2);
        }
    }
    return arg;
}

int main(void) {
    pthread_t a;
    mode = __VERIFIER_nondet_uint();
    pthread_create(&a, 0, worker, 0);
    mode = 0;
    pthread_join(a, 0);
    return 0;
}
