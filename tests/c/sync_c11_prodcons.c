// C11 <threads.h>: a producer and a consumer share a one-slot buffer guarded by an
// mtx_t and two cnd_t; a recursive mtx_t is relocked; call_once initialises once;
// thrd_join returns the thread's int result.
// expect: verdict=ok maximal=16
#include <threads.h>
#include <assert.h>

mtx_t m, rec;
cnd_t not_empty, not_full;
once_flag flag = ONCE_FLAG_INIT;
int slot, full, inits, sum;

void init(void) {
    mtx_init(&m, mtx_plain);
    mtx_init(&rec, mtx_recursive);
    cnd_init(&not_empty);
    cnd_init(&not_full);
    inits++;
}

int producer(void *arg) {
    (void)arg;
    call_once(&flag, init);
    for (int i = 1; i <= 2; i++) {
        mtx_lock(&m);
        while (full)
            cnd_wait(&not_full, &m);
        slot = i;
        full = 1;
        cnd_signal(&not_empty);
        mtx_unlock(&m);
    }
    return 7;
}

int consumer(void *arg) {
    (void)arg;
    call_once(&flag, init);
    for (int i = 0; i < 2; i++) {
        mtx_lock(&m);
        while (!full)
            cnd_wait(&not_empty, &m);
        sum += slot;
        full = 0;
        cnd_signal(&not_full);
        mtx_unlock(&m);
    }
    return 0;
}

int main(void) {
    thrd_t p, c;
    assert(thrd_create(&p, producer, 0) == thrd_success);
    assert(thrd_create(&c, consumer, 0) == thrd_success);
    assert(!thrd_equal(p, c) && thrd_equal(thrd_current(), thrd_current()));
    int rp = 0, rc = -1;
    thrd_join(p, &rp);
    thrd_join(c, &rc);
    assert(rp == 7 && rc == 0 && sum == 3 && inits == 1);
    mtx_lock(&rec);
    assert(mtx_lock(&rec) == thrd_success);
    mtx_unlock(&rec);
    mtx_unlock(&rec);
    mtx_destroy(&m);
    cnd_destroy(&not_empty);
    cnd_destroy(&not_full);
    return 0;
}
