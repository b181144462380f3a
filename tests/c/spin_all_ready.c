// main waits until a worker has raised four flags, checking them all in an inner loop
// (`all = 1; for (i...) if (!ready[i]) all = 0;`) before it reads the data published
// with them. Each outer iteration visits the flag load four times in four states (i
// differs), so the state to compare with is the visit of the same i one outer
// iteration back, not the previous visit of the load: the runtime keeps every visit
// since the last change (up to 16 per load). Before, no two consecutive visits
// matched and the first execution ended with a false `bound` defect (100 000 steps).
// Now 129 traces under optimal-DPOR, the same as dfs (8 919 executions, 129 distinct):
// the four `atomic_int` flags lie two to a word, and accesses to different flags of one
// word commute (byte-aware dependence, docs/memory.md; 611, and dfs 10 629 executions,
// while every access to a word was dependent). qpor refuses a wait on several
// locations, hence the pinned algorithm.
// expect: verdict=ok flags=--algorithm=optimal-dpor
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

#define N 4
atomic_int ready[N];
int data[N];

void *worker(void *arg) {
    (void)arg;
    for (int i = 0; i < N; i++) {
        data[i] = i + 1;
        atomic_store(&ready[i], 1);
    }
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    for (;;) {
        int all = 1;
        for (int i = 0; i < N; i++)
            if (!atomic_load(&ready[i])) all = 0;
        if (all) break;
    }
    int sum = 0;
    for (int i = 0; i < N; i++) sum += data[i];
    assert(sum == 10);
    pthread_join(t, 0);
    return 0;
}
