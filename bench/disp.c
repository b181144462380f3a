// A job dispatcher (QPOR Table 1, "Disp(j,w)"): main creates WORKERS worker threads and
// a dispatcher thread; the dispatcher hands JOBS jobs out, one at a time, to the first
// worker whose mailbox (a slot guarded by that worker's mutex) is free, trying each
// mailbox with trylock; workers poll their mailbox a bounded number of times and
// account the job in a global ledger under a second mutex (nested critical sections:
// mailbox, then ledger).
//   unfold check bench/disp.c -D JOBS=3 -D WORKERS=2
#include <pthread.h>
#include <assert.h>

#ifndef JOBS
#define JOBS 3
#endif
#ifndef WORKERS
#define WORKERS 2
#endif
#ifndef POLLS
#define POLLS 3
#endif

pthread_mutex_t box_lock[WORKERS];
int box[WORKERS]; /* 0: empty, otherwise a job id */
pthread_mutex_t ledger_lock = PTHREAD_MUTEX_INITIALIZER;
int done_jobs = 0, dispatched = 0;

void *worker(void *arg) {
    long w = (long)arg;
    for (int i = 0; i < POLLS; i++) {
        pthread_mutex_lock(&box_lock[w]);
        if (box[w] != 0) {
            int job = box[w];
            box[w] = 0;
            pthread_mutex_lock(&ledger_lock);
            assert(job >= 1 && job <= JOBS);
            done_jobs++;
            assert(done_jobs <= dispatched);
            pthread_mutex_unlock(&ledger_lock);
        }
        pthread_mutex_unlock(&box_lock[w]);
    }
    return 0;
}

void *dispatcher(void *arg) {
    (void)arg;
    for (int job = 1; job <= JOBS; job++) {
        for (int w = 0; w < WORKERS; w++) {
            if (pthread_mutex_trylock(&box_lock[w]) != 0)
                continue;
            int free_box = box[w] == 0;
            if (free_box) {
                box[w] = job;
                pthread_mutex_lock(&ledger_lock);
                dispatched++;
                pthread_mutex_unlock(&ledger_lock);
            }
            pthread_mutex_unlock(&box_lock[w]);
            if (free_box)
                break;
        }
    }
    return 0;
}

int main(void) {
    pthread_t d, w[WORKERS];
    for (int i = 0; i < WORKERS; i++)
        pthread_mutex_init(&box_lock[i], 0);
    for (long i = 0; i < WORKERS; i++)
        pthread_create(&w[i], 0, worker, (void *)i);
    pthread_create(&d, 0, dispatcher, 0);
    pthread_join(d, 0);
    for (int i = 0; i < WORKERS; i++)
        pthread_join(w[i], 0);
    assert(done_jobs <= dispatched);
    return 0;
}
