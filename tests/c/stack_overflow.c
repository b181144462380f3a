// Unbounded recursion in a thread runs off its stack: reported as a stack overflow in
// that thread, in the recursive function, not as an unexplained crash.
// expect: verdict=defect kind=crash line=6|7|8|9
#include <pthread.h>

static int recurse(int n) {
    volatile char pad[512];
    pad[0] = (char)n;
    return recurse(n + 1) + pad[0];
}

void *worker(void *arg) {
    (void)arg;
    return (void *)(long)recurse(0);
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    pthread_join(t, 0);
    return 0;
}
