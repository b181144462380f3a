// Two threads poll a flag under a read lock; the writer that would set it waits for
// the write lock behind them. In the schedules where the pollers keep the lock busy,
// each run goes on to the step bound (a `bound` defect), and its 100 000 steps are a
// long run of read-side operations that the pending write request races with.
// source-DPOR's analysis of such a run took minutes (cubic in its length) and did not
// heed --timeout; optimal-DPOR's too. (The test `a_timeout_cuts_the_analysis_of_a_long_run`
// runs it with --keep-going.)
// args: --algorithm source-dpor
// expect: verdict=defect kind=bound
#include <pthread.h>

pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
int flag;

void *poller(void *arg) {
    (void)arg;
    for (;;) {
        pthread_rwlock_rdlock(&rw);
        int f = flag;
        pthread_rwlock_unlock(&rw);
        if (f)
            break;
    }
    return 0;
}

void *setter(void *arg) {
    (void)arg;
    pthread_rwlock_wrlock(&rw);
    flag = 1;
    pthread_rwlock_unlock(&rw);
    return 0;
}

int main(void) {
    pthread_t a, b, c;
    pthread_create(&a, 0, poller, 0);
    pthread_create(&b, 0, poller, 0);
    pthread_create(&c, 0, setter, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    pthread_join(c, 0);
    return 0;
}
