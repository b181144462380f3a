// As spin_counting_poll.c, but the count matters: main asserts it never polled in vain.
// The writer's store can come after main's first poll, one of those made as steps, so
// the assertion fails in some schedule (before, the first schedule ran into the step
// bound and that `bound` defect was reported instead).
// expect: verdict=defect kind=assertion line=24
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

atomic_int flag;

void *writer(void *arg) {
    atomic_store(&flag, 1);
    return arg;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, writer, 0);
    int polls = 0;
    while (atomic_load(&flag) == 0)
        polls++;
    pthread_join(t, 0);
    assert(polls == 0);
    return 0;
}
