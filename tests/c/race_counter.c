// The textbook lost update: two threads increment a shared counter without
// synchronisation. By default plain accesses are checked for data races.
// expect: verdict=defect kind=data-race line=9
#include <pthread.h>
#include <assert.h>

int counter;

void *inc(void *arg) { (void)arg; counter++; return 0; }

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, inc, 0);
    pthread_create(&b, 0, inc, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(counter == 2);
    return 0;
}
