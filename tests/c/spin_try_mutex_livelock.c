// main holds the mutex while it joins a thread that takes it with a trylock retry loop:
// the thread can never succeed. Once its iterations are pure it waits for an unlock that
// never comes — a livelock naming the mutex and the loop's line, not a step bound.
// expect: verdict=defect kind=livelock line=11
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *worker(void *arg) {
    (void)arg;
    while (pthread_mutex_trylock(&m) != 0)
        ;
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_mutex_lock(&m);
    pthread_create(&t, 0, worker, 0);
    pthread_join(t, 0);
    pthread_mutex_unlock(&m);
    return 0;
}
