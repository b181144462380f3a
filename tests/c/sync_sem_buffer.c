// The bounded buffer with the producers' slot update under a mutex: slots are filled
// in index order, one producer at a time; the consumer always sums 1 + 2. (Reserving
// the slot under the mutex but filling it outside is still wrong: the consumer may
// read slot 0 while its producer is fetching the item — unfold finds that too.)
// expect: verdict=ok maximal=18
#include <pthread.h>
#include <semaphore.h>
#include <assert.h>

#define N 2
int buf[N];
int in, out;
sem_t empty, full;
pthread_mutex_t stats = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
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
    pthread_mutex_lock(&m);
    int slot = in;
    buf[slot] = next_item();
    in = (slot + 1) % N;
    pthread_mutex_unlock(&m);
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
