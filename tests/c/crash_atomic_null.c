// A worker adds atomically through a pointer it loads before main publishes the object:
// a NULL dereference inside the atomic operation, which runs in the runtime's hook. The
// crash names the program's line (before: a line of unfold's own header).
// expect: verdict=defect kind=crash line=12
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
struct counter { atomic_int n; };
_Atomic(struct counter *) shared;
void *worker(void *arg) {
    struct counter *c = atomic_load(&shared);
    atomic_fetch_add(&c->n, 1);
    return arg;
}
int main(void) {
    static struct counter k;
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    atomic_store(&shared, &k);
    pthread_join(t, 0);
    return 0;
}
