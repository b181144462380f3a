// SV-COMP style (reach_error, plain variables racy by design): the writer publishes `x`
// before raising `flag`, so under sequential consistency — SV-COMP's semantics, the
// default for a program that uses its harness — the reader never reaches the error.
// With --memory races the same program is a data race on both variables.
// expect: verdict=ok maximal=2
#include <pthread.h>
extern void abort(void);
void reach_error(void) { abort(); }

int x, flag;

void *writer(void *arg) {
    (void)arg;
    x = 42;
    flag = 1;
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, writer, 0);
    if (flag && x != 42)
        reach_error();
    pthread_join(t, 0);
    return 0;
}
