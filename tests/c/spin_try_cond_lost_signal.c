// A timed wait in a loop that leaves only when signalled (no predicate): the signal
// can come while main is not among the waiters (it timed out and waits to relock the
// mutex the signaller holds), and is lost; main then times out forever. The loop reads
// nothing, so once its iterations are pure main waits for a signal alone (an unlock of
// the mutex would publish nothing it reads) — and here none comes: a livelock.
// expect: verdict=defect kind=livelock line=31
#include <pthread.h>
#include <semaphore.h>
#include <time.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
sem_t waiting;

void *signaller(void *arg) {
    (void)arg;
    sem_wait(&waiting);
    pthread_mutex_lock(&m);
    pthread_cond_signal(&cv);
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t t;
    struct timespec ts = {0, 1000};
    sem_init(&waiting, 0, 0);
    pthread_create(&t, 0, signaller, 0);
    pthread_mutex_lock(&m);
    sem_post(&waiting);
    while (pthread_cond_timedwait(&cv, &m, &ts) != 0)
        ;
    pthread_mutex_unlock(&m);
    pthread_join(t, 0);
    return 0;
}
