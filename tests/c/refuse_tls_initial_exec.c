// A thread-local variable forced to the initial-exec model is accessed relative to the
// OS thread pointer, which every program thread shares under unfold: refused.
// expect: refused=initial-exec
#include <pthread.h>

__thread int x __attribute__((tls_model("initial-exec")));

void *worker(void *arg) {
    (void)arg;
    x++;
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    pthread_join(t, 0);
    return x;
}
