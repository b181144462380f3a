// The virtual clocks: a thread's readings never go back (two readings with no visible
// step between them differ: a busy delay on the clock ends), a sleep moves its time by
// the time slept, a child starts at its creator's time, and the realtime clock starts at
// 2026-01-01 (real time made the gettimeofday assertion fail; sleeping did not move the
// clock). Every assertion holds in every schedule.
// expect: verdict=ok maximal=1
#include <pthread.h>
#include <assert.h>
#include <time.h>
#include <unistd.h>
#include <sys/time.h>
static long long ns(struct timespec t) { return t.tv_sec * 1000000000LL + t.tv_nsec; }
struct timespec created;
void *child(void *arg) {
    (void)arg;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    assert(ns(now) >= ns(created));
    return 0;
}
int main(void) {
    struct timespec a, b, c;
    clock_gettime(CLOCK_MONOTONIC, &a);
    clock_gettime(CLOCK_MONOTONIC, &b);
    assert(ns(b) > ns(a));
    sleep(5);
    usleep(1000);
    clock_gettime(CLOCK_MONOTONIC, &c);
    assert(ns(c) - ns(b) >= 5001000000LL);
    struct timeval tv;
    gettimeofday(&tv, 0);
    assert(tv.tv_sec >= 1767225600 && tv.tv_sec < 1767225600 + 3600);
    struct timespec d = {1, 0};
    nanosleep(&d, 0);
    clock_gettime(CLOCK_MONOTONIC, &created);
    pthread_t t;
    pthread_create(&t, 0, child, 0);
    pthread_join(t, 0);
    return 0;
}
