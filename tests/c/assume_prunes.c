// __VERIFIER_assume prunes the executions where t1 updated x first.
// expect: verdict=ok maximal=2
// Derivation: the two workers' critical sections on m are ordered in 2 ways; x is 4
// (t1 then t2) or 5 (t2 then t1). In the first, main stops at the assumption (the
// execution is pruned, still a maximal configuration); in the second the assertion holds.
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
    __VERIFIER_assume(x == 5);
    assert(x == 5);
    return 0;
}
