// Two threads poll one mutex's flag that nobody ever sets. Each poll, after an
// iteration that changed nothing, waits for another thread's unlock of the mutex, and
// the pollers' own unlocks are weak (no write since their previous unlock): they wake
// nobody. Every schedule ends with both pollers waiting — a livelock naming the loop
// (line 14), not a `bound` defect after --max-steps of the two waking each other.
// expect: verdict=defect kind=livelock line=14
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int flag;
void *poller(void *a) {
    (void)a;
    for (;;) {
        pthread_mutex_lock(&m);
        int r = flag;
        pthread_mutex_unlock(&m);
        if (r) break;
    }
    return 0;
}
int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, poller, 0);
    pthread_create(&b, 0, poller, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
