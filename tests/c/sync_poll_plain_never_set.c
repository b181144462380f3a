// main polls a PLAIN flag under a mutex, and no thread ever sets it (the other thread
// only takes the mutex once): once main's iterations are pure it waits for an unlock of
// the mutex by another thread, which comes at most once, and then for one that never
// comes — a livelock naming the loop's lock, not a step bound.
// expect: verdict=defect kind=livelock line=23
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int flag, other;

void *idle(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    other = 1;
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, idle, 0);
    for (;;) {
        pthread_mutex_lock(&m);
        int f = flag;
        pthread_mutex_unlock(&m);
        if (f) break;
    }
    pthread_join(t, 0);
    return 0;
}
