// pthread_key_* and C11 tss_*: one value per thread, destructors run at thread exit
// for non-NULL values only, repeated while a destructor sets a value again (POSIX), and
// observed through a global counted after the joins.
// expect: verdict=ok maximal=3
// Derivation: only the destructors touch m: worker a's two calls (two rounds) and worker
// b's one call are critical sections on m, ordered in 3!/(2!1!) = 3 ways (worker_null
// is joined before a and b start).
#include <pthread.h>
#include <threads.h>
#include <assert.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_key_t key;
tss_t tkey;
int calls, tss_calls, again;
int a_value = 1, b_value = 2;

static void dtor(void *v) {
    pthread_mutex_lock(&m);
    calls++;
    // The first time worker a's destructor runs, set a value again: POSIX runs another
    // round for it.
    if (v == &a_value && !again) {
        again = 1;
        pthread_setspecific(key, &a_value);
    }
    pthread_mutex_unlock(&m);
}

static void tss_dtor(void *v) {
    assert(v == &b_value);
    tss_calls++;
}

void *worker_a(void *arg) {
    (void)arg;
    assert(pthread_getspecific(key) == 0);
    assert(pthread_setspecific(key, &a_value) == 0);
    assert(pthread_getspecific(key) == &a_value);
    return 0;
}

void *worker_b(void *arg) {
    (void)arg;
    assert(pthread_setspecific(key, &b_value) == 0);
    assert(pthread_getspecific(key) == &b_value);
    assert(tss_set(tkey, &b_value) == thrd_success && tss_get(tkey) == &b_value);
    return 0;
}

void *worker_null(void *arg) {
    (void)arg;
    // A NULL value: no destructor call.
    pthread_setspecific(key, 0);
    return 0;
}

int main(void) {
    assert(pthread_key_create(&key, dtor) == 0);
    assert(tss_create(&tkey, tss_dtor) == thrd_success);
    pthread_t a, b, n;
    pthread_create(&n, 0, worker_null, 0);
    pthread_join(n, 0);
    pthread_create(&a, 0, worker_a, 0);
    pthread_create(&b, 0, worker_b, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    // a: two rounds; b: one; worker_null: none.
    assert(calls == 3);
    assert(tss_calls == 1);
    // main's own value is separate from the workers'.
    assert(pthread_getspecific(key) == 0);
    assert(pthread_key_delete(key) == 0);
    assert(pthread_setspecific(key, &a_value) != 0);
    tss_delete(tkey);
    return 0;
}
