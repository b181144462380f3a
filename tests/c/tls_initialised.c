// Thread-local variables with non-zero initialisers: every thread (main included) starts
// with the initial values in every execution, whatever earlier threads or executions
// wrote to their own copies.
// expect: verdict=ok maximal=2
// Derivation: the only dependent actions are the two workers' critical sections on m:
// 2 traces (so the program runs twice: main's copy must be reset in between).
#include <pthread.h>
#include <assert.h>
#include <string.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
__thread int x = 7;
_Thread_local struct {
    long a;
    char s[8];
    int zero;
} y = {3, "abc", 0};

void *worker(void *arg) {
    (void)arg;
    assert(x == 7 && y.a == 3 && strcmp(y.s, "abc") == 0 && y.zero == 0);
    pthread_mutex_lock(&m);
    x += 10;
    y.a = 99;
    strcpy(y.s, "zzz");
    y.zero = 5;
    pthread_mutex_unlock(&m);
    assert(x == 17 && y.a == 99);
    return 0;
}

int main(void) {
    assert(x == 7 && y.a == 3 && strcmp(y.s, "abc") == 0);
    x = 8;
    y.a = 4;
    pthread_t a, b;
    pthread_create(&a, 0, worker, 0);
    pthread_create(&b, 0, worker, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(x == 8 && y.a == 4 && strcmp(y.s, "abc") == 0);
    return 0;
}
