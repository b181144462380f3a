// Thread identities must not depend on the order in which threads are created across
// executions (creation paths, shared by all execution processes): main creates a and b,
// a creates c, and which of b and c is *created* first depends on the schedule (each
// parent takes a private mutex first); b and c share m. One process per execution.
// expect: verdict=ok maximal=2 flags=--isolation=fork
// Derivation: only b and c touch m (lock+unlock each): 2 orders; ma and mm are private
// to a and main; every other step is ordered by causality.
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t ma = PTHREAD_MUTEX_INITIALIZER, mm = PTHREAD_MUTEX_INITIALIZER;

void *leaf(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    pthread_mutex_unlock(&m);
    return 0;
}

void *parent(void *arg) {
    (void)arg;
    pthread_t c;
    pthread_mutex_lock(&ma);
    pthread_mutex_unlock(&ma);
    pthread_create(&c, 0, leaf, 0);
    pthread_join(c, 0);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, parent, 0);
    pthread_mutex_lock(&mm);
    pthread_mutex_unlock(&mm);
    pthread_create(&b, 0, leaf, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
