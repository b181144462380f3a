// The assumption keeps the executions where t1 updated x first, and those fail.
// expect: verdict=defect kind=assertion line=27
#include <pthread.h>
#include <assert.h>

extern void __VERIFIER_assume(int cond);

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int x = 0;

void *worker(void *arg) {
    pthread_mutex_lock(&m);
    x = x * 2 + (int)(long)arg;
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, worker, (void *)1);
    pthread_create(&b, 0, worker, (void *)2);
    pthread_join(a, 0);
    pthread_join(b, 0);
    __VERIFIER_assume(x == 4);
    pthread_mutex_lock(&m);
    int v = x;
    assert(v != 4);
    pthread_mutex_unlock(&m);
    return 0;
}
