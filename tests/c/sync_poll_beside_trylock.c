// One thread polls a mutex's flag (lock, read, unlock, repeat) while another takes the
// mutex with a trylock retry loop and then sets the flag. A program that tries a mutex
// makes no weak unlock: a trylock loop waits for any unlock of the mutex, the poller's
// included (with weak unlocks both were left waiting: a false livelock). The trylock
// loop's wait is an assumption (its thread stops; its attempt after the unlock is
// another execution); the poll, in a program without weak unlocks, stays an ordinary
// wait (as an assumption, another poller's unlocks would make it fail). No defect; 7
// traces (dfs: 99 executions, 7 distinct; 70 traces and 999 executions while the trylock
// loop's wait was woken).
// expect: verdict=ok maximal=7
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
