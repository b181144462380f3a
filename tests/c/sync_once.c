// pthread_once runs its routine exactly once, and a caller that comes second returns
// only after the routine finished (it sees the initialised mutex and table).
// expect: verdict=ok maximal=4
// Derivation: each thread's call is lock(once), [routine], unlock(once); whichever
// thread takes once's mutex first runs the routine (which initialises m: a visible
// trylock and unlock of m inside its section) and the other passes (2 ways); the two
// critical sections on m come after both once calls' effects on m, in either order
// (2 ways). 4 traces.
#include <pthread.h>
#include <assert.h>

pthread_once_t once = PTHREAD_ONCE_INIT;
pthread_mutex_t m;
int inits, table[4], users;

void setup(void) {
    pthread_mutex_init(&m, 0);
    for (int i = 0; i < 4; i++)
        table[i] = i * i;
    inits++;
}

void *user(void *arg) {
    (void)arg;
    pthread_once(&once, setup);
    assert(table[3] == 9);
    pthread_mutex_lock(&m);
    users++;
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, user, 0);
    pthread_create(&b, 0, user, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(inits == 1 && users == 2);
    return 0;
}
