// atexit handlers run last registered first, then destructors, on exit() from a thread
// too; _exit skips them. No schedule fails.
// expect: verdict=ok
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>
int order[3], n;
void first(void) { order[n++] = 1; }
void second(void) { order[n++] = 2; }
__attribute__((destructor)) static void fini(void) {
    order[n++] = 3;
    assert(n == 3 && order[0] == 2 && order[1] == 1 && order[2] == 3);
}
void *t(void *a) {
    (void)a;
    exit(0);
}
int main(void) {
    atexit(first);
    atexit(second);
    pthread_t h;
    pthread_create(&h, 0, t, 0);
    pthread_join(h, 0);
    return 0;
}
