// A compare-exchange spinlock protects `counter`, but one thread updates `total` after
// releasing it: a data race (a lost update) the race detector reports at that line,
// with the spinlock's waits explored as blocking.
// expect: verdict=defect kind=data-race line=22|23
#include <pthread.h>
#include <stdatomic.h>

atomic_int l;
int counter, total;

static void lock(void) {
    while (!atomic_compare_exchange_weak(&l, &(int){0}, 1)) {
    }
}

static void unlock(void) { atomic_store(&l, 0); }

void *worker(void *arg) {
    lock();
    counter++;
    unlock();
    if (arg) total++; /* outside the lock */
    else total += 2;
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, worker, (void *)1);
    pthread_create(&b, 0, worker, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
