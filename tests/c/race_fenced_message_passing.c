// Message passing through a relaxed flag made safe by fences: a release fence before
// the relaxed store and an acquire fence after the relaxed load that read it
// synchronise (C11 7.17.4), so the data is not raced; and a counter bumped with relaxed
// read-modify-writes continues the release sequence of the release store before it,
// so a consumer acquiring the counter's value sees the producer's writes too.
// expect: verdict=ok
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

int data, more;
atomic_int ready;
atomic_int count;

static void *producer(void *arg) {
    (void)arg;
    data = 42;
    atomic_thread_fence(memory_order_release);
    atomic_store_explicit(&ready, 1, memory_order_relaxed);
    more = 7;
    atomic_store_explicit(&count, 1, memory_order_release);
    return 0;
}

static void *bumper(void *arg) {
    (void)arg;
    atomic_fetch_add_explicit(&count, 1, memory_order_relaxed);
    return 0;
}

int main(void) {
    pthread_t p, b;
    pthread_create(&p, 0, producer, 0);
    pthread_create(&b, 0, bumper, 0);
    while (!atomic_load_explicit(&ready, memory_order_relaxed))
        ;
    atomic_thread_fence(memory_order_acquire);
    assert(data == 42);
    if (atomic_load_explicit(&count, memory_order_acquire) == 2)
        assert(more == 7); // count 2: the bump followed the release store
    pthread_join(p, 0);
    pthread_join(b, 0);
    return 0;
}
