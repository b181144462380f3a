// Unbounded recursion whose frames are small and whose last act before the next call is
// an instrumented store: the stack runs out inside the memory hook's prologue, with the
// stack pointer in the guard page. The report must still name the recursive function
// (it said "in code outside the program" at an unknown location).
// expect: verdict=defect kind=crash line=9|10|11
#include <pthread.h>

static int walk(int n) {
    int a[32];
    a[n % 32] = n;
    return walk(n + 1) + a[3];
}

void *worker(void *arg) {
    (void)arg;
    return (void *)(long)walk(0);
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    pthread_join(t, 0);
    return 0;
}
