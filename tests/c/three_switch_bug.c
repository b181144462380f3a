// Strict alternation: x reaches 6 only if the two threads alternate their three critical
// sections each (a, b, a, b, a, b): the bug needs 5 context switches between workers.
// expect: verdict=defect kind=assertion line=38
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
    assert(x != 6);
    return 0;
}
