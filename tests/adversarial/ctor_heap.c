// A constructor that allocates: its heap is reset with the rest of the execution, so
// every execution sees the same addresses (no "replay diverged").
// expect: verdict=ok
#include <pthread.h>
#include <stdlib.h>
#include <assert.h>
pthread_mutex_t *m;
int *counter;
__attribute__((constructor)) static void init(void) {
    m = malloc(sizeof *m);
    pthread_mutex_init(m, 0);
    counter = calloc(1, sizeof *counter);
}
void *add(void *a) {
    (void)a;
    pthread_mutex_lock(m);
    (*counter)++;
    pthread_mutex_unlock(m);
    return 0;
}
int main(void) {
    pthread_t t1, t2;
    pthread_create(&t1, 0, add, 0);
    pthread_create(&t2, 0, add, 0);
    pthread_join(t1, 0);
    pthread_join(t2, 0);
    assert(*counter == 2);
    return 0;
}
