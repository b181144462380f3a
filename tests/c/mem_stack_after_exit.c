// A worker publishes the address of one of its locals and exits; main uses it after
// joining: an access to the stack of a thread that exited (line 21).
// expect: verdict=defect kind=stack-use-after-exit line=21
#include <pthread.h>
#include <stdatomic.h>

_Atomic(int *) result;

void *worker(void *arg) {
    (void)arg;
    int local = 42;
    atomic_store(&result, &local);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    pthread_join(t, 0);
    int *p = atomic_load(&result);
    return *p == 42 ? 0 : 1;
}
