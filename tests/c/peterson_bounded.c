// Peterson's mutual exclusion on sequentially consistent atomics. The waits are spin
// loops, bounded here (an execution whose wait did not finish is discarded with an
// assumption) until spinning is handled as blocking. Mutual exclusion holds, and the
// plain accesses of the critical section do not race.
// expect: verdict=ok
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

atomic_int want[2], turn;
int inside, shared;

void __VERIFIER_assume(int);

void *proc(void *arg) {
    int me = (int)(long)arg, other = 1 - me;
    atomic_store(&want[me], 1);
    atomic_store(&turn, other);
    int i;
    for (i = 0; i < 3 && atomic_load(&want[other]) && atomic_load(&turn) == other; i++) {
    }
    __VERIFIER_assume(i < 3);
    inside++;
    assert(inside == 1);
    shared++;
    inside--;
    atomic_store(&want[me], 0);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, proc, (void *)0);
    pthread_create(&b, 0, proc, (void *)1);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(shared == 2);
    return 0;
}
