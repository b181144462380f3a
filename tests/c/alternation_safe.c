// The same alternation as three_switch_bug.c, with a correct assertion.
// expect: verdict=ok maximal=20
// Derivation: each worker has 3 critical sections on m (lock+unlock, no other shared
// object); a trace is an interleaving of the 3 sections of a with the 3 of b, keeping
// each thread's order: C(6,3) = 20.
#include <pthread.h>
#include <assert.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int x = 0;

void *a(void *arg) {
    (void)arg;
    for (int i = 0; i < 3; i++) {
        pthread_mutex_lock(&m);
        if (x == 2 * i)
            x++;
        pthread_mutex_unlock(&m);
    }
    return 0;
}

void *b(void *arg) {
    (void)arg;
    for (int i = 0; i < 3; i++) {
        pthread_mutex_lock(&m);
        if (x == 2 * i + 1)
            x++;
        pthread_mutex_unlock(&m);
    }
    return 0;
}

int main(void) {
    pthread_t ta, tb;
    pthread_create(&ta, 0, a, 0);
    pthread_create(&tb, 0, b, 0);
    pthread_join(ta, 0);
    pthread_join(tb, 0);
    assert(x >= 1 && x <= 6);
    return 0;
}
