// The program defines __VERIFIER_atomic_begin/end as empty stubs and only declares
// __VERIFIER_error: the sections are still atomic (no increment is lost, so the error is
// unreachable), and the declared function is still the error entry point.
// expect: verdict=ok
#include <pthread.h>

void __VERIFIER_atomic_begin(void) {}
void __VERIFIER_atomic_end(void) {}
extern void __VERIFIER_error(void);

int count;

void *add(void *arg) {
    (void)arg;
    __VERIFIER_atomic_begin();
    int c = count;
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
