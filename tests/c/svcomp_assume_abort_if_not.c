// SV-COMP's tasks prune paths with assume_abort_if_not, an abort() that is not an error:
// the worker only goes on when its draw is true, so the error is unreachable. (abort()
// is a defect outside SV-COMP's harness: abort_in_thread.c.)
// expect: verdict=ok maximal=2
#include <pthread.h>
#include <stdbool.h>
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__noreturn__));
void reach_error(void) { __assert_fail("0", "svcomp_assume_abort_if_not.c", 9, "reach_error"); }
void assume_abort_if_not(int cond) {
    if (!cond) {
        abort();
    }
}
extern bool __VERIFIER_nondet_bool(void);

int go;

void *worker(void *arg) {
    bool b = __VERIFIER_nondet_bool();
    assume_abort_if_not(b);
    if (!b)
        reach_error();
    go = 1;
    return arg;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    pthread_join(t, 0);
    return 0;
}
