// SV-COMP's property is that reach_error is never called, whatever its body: here it
// does nothing and the task aborts after it. The check fails when the worker's write of
// `x` falls between main's test and its use.
// expect: verdict=defect kind=assertion line=27
#include <pthread.h>
extern void abort(void);
void reach_error(void) {}
#define check(c)          \
    do {                  \
        if (!(c)) {       \
            reach_error(); \
            abort();      \
        }                 \
    } while (0)

int x = 1;

void *worker(void *arg) {
    x = 0;
    return arg;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    if (x == 1) {
        check(x >= 1);
    }
    pthread_join(t, 0);
    return 0;
}
