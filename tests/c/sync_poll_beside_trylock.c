// One thread polls a mutex's flag (lock, read, unlock, repeat) while another takes the
// mutex with a trylock retry loop and then sets the flag. A program that tries a mutex
// makes no weak unlock: the trylock loop, after a failed attempt, waits for any unlock of
// the mutex, and the poller's unlocks must wake it (a weak unlock would leave both
// waiting: a false livelock). No defect; 70 traces (dfs: 999 executions, 70 distinct).
// expect: verdict=ok maximal=70
#include <pthread.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int flag;
void *poller(void *a) {
    (void)a;
    for (;;) { pthread_mutex_lock(&m); int r = flag; pthread_mutex_unlock(&m); if (r) break; }
    return 0;
}
void *setter(void *a) {
    (void)a;
    while (pthread_mutex_trylock(&m)) {}
    flag = 1;
    pthread_mutex_unlock(&m);
    return 0;
}
int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, poller, 0);
    pthread_create(&b, 0, setter, 0);
    pthread_join(a, 0); pthread_join(b, 0);
    return 0;
}
