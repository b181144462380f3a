// Some SV-COMP tasks define reach_error as abort(): calling reach_error is the error
// (reported at the call), though other aborts only end their path.
// expect: verdict=defect kind=assertion line=28
#include <pthread.h>
extern void abort(void);
void reach_error(void) { abort(); }
void assume_abort_if_not(int cond) {
    if (!cond) {
        abort();
    }
}
extern int __VERIFIER_nondet_int(void);

int x;

void *worker(void *arg) {
    int v = __VERIFIER_nondet_int();
    assume_abort_if_not(v >= 0);
    x = v;
    return arg;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    pthread_join(t, 0);
    if (x == 1)
        reach_error();
    return 0;
}
