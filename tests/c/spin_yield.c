// A spin whose body yields or sleeps (sched_yield, pthread_yield, usleep, nanosleep):
// none of them changes what another thread can see, so the iteration is still pure and
// main blocks on the flag after two identical iterations. 3 maximal configurations, as
// for the bare spin (spin_flag_handoff.c): the store before main's first load, between
// its first and second load, or after both (main waits, then reads again).
// expect: verdict=ok maximal=3
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <time.h>
#include <unistd.h>
#include <assert.h>

atomic_int ready;
int data;

void *producer(void *arg) {
    (void)arg;
    data = 42;
    atomic_store(&ready, 1);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, producer, 0);
    while (!atomic_load(&ready)) {
        sched_yield();
        pthread_yield();
        usleep(1);
        struct timespec ts = {0, 1000};
        nanosleep(&ts, 0);
    }
    assert(data == 42);
    pthread_join(t, 0);
    return 0;
}
