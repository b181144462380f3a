// SV-COMP atomic sections: a function named __VERIFIER_atomic_* and a
// __VERIFIER_atomic_begin/end block; unprotected increments stay correct.
// expect: verdict=ok maximal=6
// Derivation: each worker runs two atomic sections (the hidden atomic mutex: lock+unlock
// each); a trace interleaves the 2 sections of t1 with the 2 of t2 keeping each
// thread's order: C(4,2) = 6.
#include <pthread.h>
#include <assert.h>

extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);

int x = 0;

void __VERIFIER_atomic_inc(void) {
    int t = x;
    x = t + 1;
}

void *worker(void *arg) {
    (void)arg;
    __VERIFIER_atomic_inc();
    __VERIFIER_atomic_begin();
    int t = x;
    x = t + 1;
    __VERIFIER_atomic_end();
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, worker, 0);
    pthread_create(&b, 0, worker, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(x == 4);
    return 0;
}
