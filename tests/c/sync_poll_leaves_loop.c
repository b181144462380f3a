// main polls a plain flag under a mutex and leaves the loop still holding it (the usual
// `lock; if (ready) break; unlock;`), then locks the mutex again. A pure iteration found
// inside the critical section makes the poller wait at its next lock; that wait must
// not be taken when the read after the checkpoint may see what another thread's unlock
// published since the iteration's own unlock: main would leave the loop instead, and a
// wait at its next lock (after the loop) would be stale — a false `livelock` at line 37,
// which every algorithm reported before the poll checked the release count.
// Derivation: the producer's critical section P goes before main's first, second or
// third polling section (that section sees the flag and main leaves the loop), or after
// the third: main waits, P's unlock wakes it, and its fourth section sees the flag.
// 4 maximal configurations under every relation.
// expect: verdict=ok maximal=4
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int ready, data;

void *prod(void *a) {
    (void)a;
    pthread_mutex_lock(&m);
    ready = 1;
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, prod, 0);
    for (;;) {
        pthread_mutex_lock(&m);
        if (ready)
            break;
        pthread_mutex_unlock(&m);
    }
    int d = data;
    pthread_mutex_unlock(&m);
    pthread_mutex_lock(&m);
    d += data;
    pthread_mutex_unlock(&m);
    pthread_join(t, 0);
    return d;
}
