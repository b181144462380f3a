// Under --memory sc a plain flag orders: the reader reads the block, then sets the flag;
// the freer waits for the flag, then frees. Every shared access is sequentially
// consistent there, so the free always follows the read: no defect (happens-before of
// sc accesses must order them, or the free would be reported).
// expect: verdict=ok flags=--memory=sc
#include <pthread.h>
#include <stdlib.h>
#include <assert.h>
int *p;
int done, seen;
void *reader(void *arg) {
    (void)arg;
    seen = *p;
    done = 1;
    return 0;
}
void *freer(void *arg) {
    (void)arg;
    while (!done)
        ;
    free(p);
    return 0;
}
int main(void) {
    p = malloc(sizeof *p);
    *p = 3;
    pthread_t a, b;
    pthread_create(&a, 0, reader, 0);
    pthread_create(&b, 0, freer, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(seen == 3);
    return 0;
}
