// main waits for a flag no thread sets, counting its polls in an atomic: the count is a
// write every other thread can see, so the loop is neither a spin-wait nor a counting
// poll, and the execution runs to the step bound (a `bound` defect: the checker
// cannot tell such a loop from one that never ends).
// expect: verdict=defect kind=bound flags=--max-steps=60
#include <pthread.h>
#include <stdatomic.h>

atomic_int flag;
atomic_long attempts;

void *idle(void *arg) { return arg; }

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, idle, 0);
    while (!atomic_load(&flag))
        atomic_fetch_add(&attempts, 1);
    pthread_join(t, 0);
    return 0;
}
