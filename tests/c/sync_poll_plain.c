// The consumer polls a PLAIN flag under the mutex that protects it (lock, read, unlock,
// repeat). Once an iteration is pure (its third visit of the read finds the same state)
// it waits for another thread's unlock of the mutex instead of looping: in a race-free
// program every write to what it read is made under the mutex, before that unlock.
// No race (data is written before the producer's lock, read after the consumer saw the
// flag under the same mutex), no failure.
// Derivation: the traces are the orders of the producer's critical section P among the
// consumer's sections C1, C2, C3 (three visits of the read before the wait): P before C1
// (C1 sees the flag), between C1 and C2, between C2 and C3, or after C3 — then the
// consumer waits, P's unlock wakes it, and C4 sees the flag. The rest (creates, joins,
// exits) is ordered by causality: 4 maximal configurations, under every relation.
// expect: verdict=ok maximal=4
#include <pthread.h>
#include <assert.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int ready, data;

void *prod(void *a) {
    (void)a;
    data = 42;
    pthread_mutex_lock(&m);
    ready = 1;
    pthread_mutex_unlock(&m);
    return 0;
}

void *cons(void *a) {
    (void)a;
    for (;;) {
        pthread_mutex_lock(&m);
        int r = ready;
        pthread_mutex_unlock(&m);
        if (r) break;
    }
    assert(data == 42);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, prod, 0);
    pthread_create(&b, 0, cons, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
