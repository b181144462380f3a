// Lazy initialisation without pthread_once: both threads can find the flag clear
// (initialising the mutex is a visible step between the test and the set) and
// initialise twice.
// expect: verdict=defect kind=assertion|data-race line=14|19|21|32
#include <pthread.h>
#include <assert.h>

int initialised;
pthread_mutex_t m;
int inits;

void setup(void) {
    pthread_mutex_init(&m, 0);
    inits++;
}

void *user(void *arg) {
    (void)arg;
    if (!initialised) {
        setup();
        initialised = 1;
    }
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, user, 0);
    pthread_create(&b, 0, user, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(inits == 1);
    return 0;
}
