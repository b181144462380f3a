// The increment of spin_try_mutex.c split into two critical sections, each entered with
// a trylock retry loop: the other thread's whole increment can fall between them (a lost
// update), and the assertion fails. The retry loops wait instead of running to the step
// bound, so the failing schedule is found (and no livelock is reported).
// expect: verdict=defect kind=assertion line=31
#include <pthread.h>
#include <assert.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int counter;

void *worker(void *arg) {
    (void)arg;
    while (pthread_mutex_trylock(&m) != 0)
        ;
    int tmp = counter;
    pthread_mutex_unlock(&m);
    while (pthread_mutex_trylock(&m) != 0)
        ;
    counter = tmp + 1;
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, worker, 0);
    pthread_create(&b, 0, worker, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(counter == 2);
    return 0;
}
