// main polls under a mutex for a flag nobody sets: once its iterations are pure it
// waits for a write that no thread will make — a livelock naming the loop.
// expect: verdict=defect kind=livelock line=18
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
_Atomic int flag;

void *idle(void *arg) {
    (void)arg;
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
