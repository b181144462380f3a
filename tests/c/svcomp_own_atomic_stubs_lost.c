// As svcomp_own_atomic_stubs.c, but the sections end between the read and the write:
// one increment can be lost, and the declared __VERIFIER_error is then reached.
// expect: verdict=defect kind=assertion line=30
#include <pthread.h>

void __VERIFIER_atomic_begin(void) {}
void __VERIFIER_atomic_end(void) {}
extern void __VERIFIER_error(void);

int count;

void *add(void *arg) {
    (void)arg;
    __VERIFIER_atomic_begin();
    int c = count;
    __VERIFIER_atomic_end();
    __VERIFIER_atomic_begin();
    count = c + 1;
    __VERIFIER_atomic_end();
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, add, 0);
    pthread_create(&b, 0, add, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    if (count != 2)
        __VERIFIER_error();
    return 0;
}
