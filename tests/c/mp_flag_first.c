// Message passing with the flag published before the data: a reader that sees the
// flag can still read the old data.
// expect: verdict=defect kind=assertion line=14
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

atomic_int data, flag;

void *writer(void *arg) { (void)arg; atomic_store(&flag, 1); atomic_store(&data, 42); return 0; }

void *reader(void *arg) {
    (void)arg;
    if (atomic_load(&flag)) assert(atomic_load(&data) == 42);
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
