// main waits for a flag with pthread_cond_timedwait in a loop, and the other thread
// never sets it (it only takes the mutex once): once main's iterations are pure it waits
// for an unlock or a signal that never comes — a livelock naming the mutex, the
// condition variable and the loop's line.
// expect: verdict=defect kind=livelock line=27 flags=--algorithm=optimal-dpor
#include <pthread.h>
#include <time.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
int ready, other;

void *idle(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    other = 1;
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t t;
    struct timespec ts = {0, 1000};
    pthread_create(&t, 0, idle, 0);
    pthread_mutex_lock(&m);
    while (!ready)
        pthread_cond_timedwait(&cv, &m, &ts);
    pthread_mutex_unlock(&m);
    pthread_join(t, 0);
    return 0;
}
