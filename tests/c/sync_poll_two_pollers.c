// Two threads poll one mutex's plain flag (lock, read, unlock, repeat) while main sets
// it under the mutex. A poll whose iteration changed nothing waits for another thread's
// unlock of the mutex; a poller's unlock that follows its own unlock with no write in
// between is weak: it wakes no poller. Without weak unlocks the two pollers woke each
// other forever (every run ended at --max-steps, a false `bound` defect). No race, no
// failure. A poll that found nothing is an assumption: the poller stops, and its attempt
// after main's unlock is another execution. The model
// `programs::pollers_of_one_mutex(2, false, 1, 2)` is this program step for step: its
// brute force runs the 1 087 schedules dfs runs here and finds 114 traces under both
// relations (with waits woken by main's unlock: 31 737 schedules, 602 traces under
// read-read independence, 1 086 with every two operations of an object ordered).
// expect: verdict=ok maximal=114
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
    pthread_mutex_lock(&m);
    flag = 1;
    pthread_mutex_unlock(&m);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
