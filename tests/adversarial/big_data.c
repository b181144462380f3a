// A 64 MiB initialised array written in every execution: each execution starts from the
// values as loaded (the reset maps the large range again from a memory file instead of
// copying 64 MiB back).
// expect: verdict=ok
#include <pthread.h>
#include <assert.h>
#define N (64 << 20)
#define I1 1, 2, 3, 4, 5, 6, 7, 8
char table[N] = {I1, I1, I1, I1};
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int turn;
void *t(void *a) {
    long i = (long)a;
    pthread_mutex_lock(&m);
    assert(table[i] == i % 8 + 1 && table[i + (1 << 20)] == 0);
    table[i] = 0;
    table[i + (1 << 20)] = (char)++turn;
    pthread_mutex_unlock(&m);
    return 0;
}
int main(void) {
    pthread_t h[3];
    for (long i = 0; i < 3; i++) pthread_create(&h[i], 0, t, (void *)(i * 7));
    for (int i = 0; i < 3; i++) pthread_join(h[i], 0);
    assert(turn == 3 && table[0] == 0 && table[1] == 2);
    return 0;
}
