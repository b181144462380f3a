// A bounded buffer with two semaphores (free slots, full slots) and two producers, but
// no mutex around the slot index: a producer reads `in`, then fetches its item (which
// takes a statistics mutex: a visible step), and the other producer can read the same
// `in` meanwhile. Both fill slot 0; the consumer reads an empty slot 1.
// expect: verdict=defect kind=assertion|data-race line=27|29|47
#include <pthread.h>
#include <semaphore.h>
#include <assert.h>

#define N 2
int buf[N];
int in, out;
sem_t empty, full;
pthread_mutex_t stats = PTHREAD_MUTEX_INITIALIZER;
int produced;

int next_item(void) {
    pthread_mutex_lock(&stats);
    int v = ++produced;
    pthread_mutex_unlock(&stats);
    return v;
}

void *producer(void *arg) {
    (void)arg;
    sem_wait(&empty);
    int slot = in;
    buf[slot] = next_item();
    in = (slot + 1) % N;
    sem_post(&full);
    return 0;
}

int main(void) {
    pthread_t a, b;
    sem_init(&empty, 0, N);
    sem_init(&full, 0, 0);
    pthread_create(&a, 0, producer, 0);
    pthread_create(&b, 0, producer, 0);
    int sum = 0;
    for (int i = 0; i < 2; i++) {
        sem_wait(&full);
        sum += buf[out];
        out = (out + 1) % N;
        sem_post(&empty);
    }
    assert(sum == 3);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
