// A spin that counts its attempts in a global buffer with strcat (a write made inside
// libc, which is not instrumented) and gives up after four: the loop's registers and
// stack repeat, but strcat changed memory, so it is not a pure iteration (before, it
// became an assumption and the give-up was never run: verdict OK).
// expect: verdict=defect kind=assertion line=16
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <assert.h>
atomic_int ready;
char tries[16];
void *consumer(void *arg) {
    while (!atomic_load(&ready))
        if (strlen(strcat(tries, "x")) >= 4) break;
    (void)arg;
    assert(atomic_load(&ready));
    return 0;
}
void *producer(void *arg) {
    atomic_store(&ready, 1);
    return arg;
}
int main(void) {
    pthread_t c, p;
    pthread_create(&c, 0, consumer, 0);
    pthread_create(&p, 0, producer, 0);
    pthread_join(c, 0);
    pthread_join(p, 0);
    return 0;
}
