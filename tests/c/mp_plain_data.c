// Correct message passing: plain data published through an atomic flag. The store of
// the flag releases the data, the load that sees it acquires it: no race, no failure.
// Traces (QPOR, every access dependent): the reader's load of the flag before the
// writer's store, or after it (then it reads data): 2.
// expect: verdict=ok maximal=2
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

int data;
atomic_int flag;

void *writer(void *arg) { (void)arg; data = 42; atomic_store(&flag, 1); return 0; }

void *reader(void *arg) {
    (void)arg;
    if (atomic_load(&flag)) assert(data == 42);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, writer, 0);
    pthread_create(&b, 0, reader, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
