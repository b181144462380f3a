// The lost update under --memory sc: plain accesses are scheduling points, so the
// interleaving that loses an increment is explored and the assertion fails.
// expect: verdict=defect kind=assertion line=17 flags=--memory=sc
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
