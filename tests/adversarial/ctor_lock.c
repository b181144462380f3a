// A constructor that locks and unlocks a mutex and starts nothing: it runs in main's
// thread at the start of every execution (never in the checker), so the two threads
// find the counter it set.
// expect: verdict=ok
#include <pthread.h>
#include <assert.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int counter;
__attribute__((constructor)) static void init(void) {
    pthread_mutex_lock(&m);
    counter = 10;
    pthread_mutex_unlock(&m);
}
void *add(void *a) {
    (void)a;
    pthread_mutex_lock(&m);
    counter++;
    pthread_mutex_unlock(&m);
    return 0;
}
int main(void) {
    pthread_t t1, t2;
    pthread_create(&t1, 0, add, 0);
    pthread_create(&t2, 0, add, 0);
    pthread_join(t1, 0);
    pthread_join(t2, 0);
    assert(counter == 12);
    return 0;
}
