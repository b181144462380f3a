// C11 result codes: a held plain mtx_t gives thrd_busy to mtx_trylock and
// thrd_timedout to mtx_timedlock; a cnd_timedwait nobody signals times out; a
// thread exits with thrd_exit and its result is joined; thrd_detach succeeds.
// expect: verdict=ok maximal=1
#include <threads.h>
#include <time.h>
#include <assert.h>

mtx_t m;
cnd_t c;

int quitter(void *arg) {
    (void)arg;
    thrd_yield();
    thrd_exit(5);
}

int idle(void *arg) {
    (void)arg;
    return 0;
}

int main(void) {
    struct timespec t = {0, 0};
    assert(mtx_init(&m, mtx_plain | mtx_timed) == thrd_success);
    assert(cnd_init(&c) == thrd_success);
    assert(mtx_lock(&m) == thrd_success);
    assert(mtx_trylock(&m) == thrd_busy);
    assert(mtx_timedlock(&m, &t) == thrd_timedout);
    assert(cnd_timedwait(&c, &m, &t) == thrd_timedout);
    assert(mtx_unlock(&m) == thrd_success);
    thrd_t q, d;
    assert(thrd_create(&q, quitter, 0) == thrd_success);
    int r = 0;
    assert(thrd_join(q, &r) == thrd_success && r == 5);
    assert(thrd_create(&d, idle, 0) == thrd_success);
    assert(thrd_detach(d) == thrd_success);
    cnd_destroy(&c);
    mtx_destroy(&m);
    return 0;
}
