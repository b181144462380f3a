// SV-COMP style: reach_error defined through __assert_fail, abort declared again.
// expect: verdict=defect kind=assertion line=24
#include <pthread.h>
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", "svcomp_reach_error.c", 6, "reach_error"); }

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int flag = 0;

void *worker(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    flag = 1;
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    pthread_mutex_lock(&m);
    if (flag)
        reach_error();
    pthread_mutex_unlock(&m);
    pthread_join(t, 0);
    return 0;
}
