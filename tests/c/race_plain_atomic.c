// A plain write racing with an atomic read of the same variable: atomics do not race
// with each other, but an atomic access and a plain one do.
// expect: verdict=defect kind=data-race line=10|11
#include <pthread.h>
#include <stdatomic.h>

int x;

void *plain(void *arg) { (void)arg; x = 1; return 0; }
void *atomic(void *arg) { (void)arg; return (void *)(long)__atomic_load_n(&x, __ATOMIC_SEQ_CST); }

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, plain, 0);
    pthread_create(&b, 0, atomic, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
