// Multiple producers, multiple consumers (QPOR Table 1, "MPC(p,c)"): PRODUCERS threads
// put ITEMS items each into a bounded ring buffer protected by one mutex; CONSUMERS
// threads take items out. Without condition variables, a full (empty) buffer makes the
// thread release the lock and retry, a bounded number of times (RETRIES), so every
// execution is finite. Invariants on the buffer are asserted inside the critical
// sections.
//   unfold check bench/mpc.c -D PRODUCERS=2 -D CONSUMERS=2 -D ITEMS=2
#include <pthread.h>
#include <assert.h>

#ifndef PRODUCERS
#define PRODUCERS 2
#endif
#ifndef CONSUMERS
#define CONSUMERS 2
#endif
#ifndef ITEMS
#define ITEMS 2
#endif
#ifndef CAPACITY
#define CAPACITY 2
#endif
#ifndef RETRIES
#define RETRIES 2
#endif

pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
int buf[CAPACITY], head = 0, count = 0, produced = 0, consumed = 0;

void *producer(void *arg) {
    long id = (long)arg;
    for (int i = 0; i < ITEMS; i++) {
        for (int tries = 0; tries <= RETRIES; tries++) {
            pthread_mutex_lock(&lock);
            assert(count >= 0 && count <= CAPACITY);
            if (count < CAPACITY) {
                buf[(head + count) % CAPACITY] = (int)(id * 100 + i);
                count++;
                produced++;
                pthread_mutex_unlock(&lock);
                break;
            }
            pthread_mutex_unlock(&lock);
        }
    }
    return 0;
}

void *consumer(void *arg) {
    (void)arg;
    for (int i = 0; i < ITEMS; i++) {
        for (int tries = 0; tries <= RETRIES; tries++) {
            pthread_mutex_lock(&lock);
            assert(count >= 0 && count <= CAPACITY);
            if (count > 0) {
                int v = buf[head];
                assert(v >= 0);
                head = (head + 1) % CAPACITY;
                count--;
                consumed++;
                pthread_mutex_unlock(&lock);
                break;
            }
            pthread_mutex_unlock(&lock);
        }
    }
    return 0;
}

int main(void) {
    pthread_t p[PRODUCERS], c[CONSUMERS];
    for (long i = 0; i < PRODUCERS; i++)
        pthread_create(&p[i], 0, producer, (void *)i);
    for (long i = 0; i < CONSUMERS; i++)
        pthread_create(&c[i], 0, consumer, (void *)i);
    for (int i = 0; i < PRODUCERS; i++)
        pthread_join(p[i], 0);
    for (int i = 0; i < CONSUMERS; i++)
        pthread_join(c[i], 0);
    assert(produced - consumed == count);
    return 0;
}
