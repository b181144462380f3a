// Two threads each publish a result in their own slot of one array: the slots are
// neighbours in one 8-byte memory word. The DPOR family lets accesses to disjoint bytes
// of a word commute (one trace); QPOR orders every two accesses to a word (two
// configurations), so the default algorithm hands over to optimal-DPOR here.
// expect: verdict=ok maximal=2 maximal-rr=1
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

atomic_int slot[2];

void *worker(void *arg) {
    long i = (long)arg;
    atomic_store(&slot[i], (int)i + 1);
    return 0;
}

int main(void) {
    pthread_t t[2];
    for (long i = 0; i < 2; i++)
        pthread_create(&t[i], 0, worker, (void *)i);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], 0);
    assert(slot[0] == 1 && slot[1] == 2);
    return 0;
}
