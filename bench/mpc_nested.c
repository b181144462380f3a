// Multiple producers, multiple consumers with nested and data-dependent critical
// sections (the shape of the QPOR paper's "MPC(p,c)", section 6; Th = p + c + 1).
//
// A ring of CAPACITY slots, each slot under its own lock; producers share an `in_lock`
// for the insertion index and consumers an `out_lock` for the removal index. A producer
// takes `in_lock`, then the lock of the slot the index points to (nested); if the slot
// is free it fills it and advances the index, otherwise it lets both go and retries, at
// most RETRIES times. A consumer does the same on the removal side. What a consumer does
// next depends on the item it took (data-dependent locking): an item of an even
// producer is accounted under `even_lock`, one of an odd producer under `odd_lock`, each
// nested in the slot's lock. The slot invariants are asserted in the nested sections;
// main checks the totals at the end.
//   unfold check bench/mpc_nested.c -D PRODUCERS=2 -D CONSUMERS=2
#include <pthread.h>
#include <assert.h>

#ifndef PRODUCERS
#define PRODUCERS 2
#endif
#ifndef CONSUMERS
#define CONSUMERS 2
#endif
#ifndef CAPACITY
#define CAPACITY 2
#endif
#ifndef RETRIES
#define RETRIES 1
#endif

pthread_mutex_t in_lock = PTHREAD_MUTEX_INITIALIZER, out_lock = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t slot_lock[CAPACITY];
int slot[CAPACITY]; /* 0: free, otherwise 1 + the producer's id */
int in = 0, out = 0;
pthread_mutex_t even_lock = PTHREAD_MUTEX_INITIALIZER, odd_lock = PTHREAD_MUTEX_INITIALIZER;
int even_items = 0, odd_items = 0, produced = 0, consumed = 0;

void *producer(void *arg) {
    long id = (long)arg;
    for (int tries = 0; tries <= RETRIES; tries++) {
        pthread_mutex_lock(&in_lock);
        int s = in % CAPACITY;
        pthread_mutex_lock(&slot_lock[s]);
        int free = slot[s] == 0;
        if (free) {
            slot[s] = (int)id + 1;
            in++;
            produced++;
        }
        pthread_mutex_unlock(&slot_lock[s]);
        pthread_mutex_unlock(&in_lock);
        if (free)
            return 0;
    }
    return 0;
}

void *consumer(void *arg) {
    (void)arg;
    for (int tries = 0; tries <= RETRIES; tries++) {
        pthread_mutex_lock(&out_lock);
        int s = out % CAPACITY;
        pthread_mutex_lock(&slot_lock[s]);
        int item = slot[s];
        if (item != 0) {
            slot[s] = 0;
            out++;
            consumed++;
            pthread_mutex_unlock(&out_lock);
            /* Data-dependent: which accounting lock depends on the producer. */
            pthread_mutex_t *acct = (item - 1) % 2 == 0 ? &even_lock : &odd_lock;
            pthread_mutex_lock(acct);
            if (acct == &even_lock)
                even_items++;
            else
                odd_items++;
            assert(item >= 1 && item <= PRODUCERS);
            pthread_mutex_unlock(acct);
            pthread_mutex_unlock(&slot_lock[s]);
            return 0;
        }
        pthread_mutex_unlock(&slot_lock[s]);
        pthread_mutex_unlock(&out_lock);
    }
    return 0;
}

int main(void) {
    pthread_t p[PRODUCERS], c[CONSUMERS];
    for (int s = 0; s < CAPACITY; s++)
        pthread_mutex_init(&slot_lock[s], 0);
    for (long i = 0; i < PRODUCERS; i++)
        pthread_create(&p[i], 0, producer, (void *)i);
    for (long i = 0; i < CONSUMERS; i++)
        pthread_create(&c[i], 0, consumer, (void *)i);
    for (int i = 0; i < PRODUCERS; i++)
        pthread_join(p[i], 0);
    for (int i = 0; i < CONSUMERS; i++)
        pthread_join(c[i], 0);
    int full = 0;
    for (int s = 0; s < CAPACITY; s++)
        full += slot[s] != 0;
    assert(produced - consumed == full);
    assert(even_items + odd_items == consumed);
    return 0;
}
