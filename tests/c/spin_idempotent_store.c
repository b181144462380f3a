// A wait loop that records, on every pass, that it waited: from the second pass on the
// store writes the value already there, so the pass changes nothing and the loop is a
// spin-wait on the flag (before, each pass counted as a change and every execution ran
// to the step bound: a false `bound` defect).
// expect: verdict=ok
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

atomic_int flag;
int data;
int waited; // the consumer's own record

static void *consumer(void *arg) {
    (void)arg;
    while (!atomic_load(&flag))
        waited = 1;
    assert(data == 1);
    return 0;
}

static void *producer(void *arg) {
    (void)arg;
    data = 1;
    atomic_store(&flag, 1);
    return 0;
}

int main(void) {
    pthread_t c, p;
    pthread_create(&c, 0, consumer, 0);
    pthread_create(&p, 0, producer, 0);
    pthread_join(c, 0);
    pthread_join(p, 0);
    return 0;
}
