// A thread computes forever on local data (no shared access, no visible operation):
// nothing but the per-execution time limit can stop it. The report names the thread
// and the line of the loop where it was interrupted.
// expect: verdict=defect kind=timeout line=9|10|11|12 flags=--exec-timeout=0.3
#include <pthread.h>

void *worker(void *arg) {
    (void)arg;
    unsigned long x = 1;
    for (;;) {
        x = x * 6364136223846793005ul + 1;
        __asm__ volatile("" : "+r"(x));
    }
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    pthread_join(t, 0);
    return 0;
}
