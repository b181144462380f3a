// The source-sets / optimal-DPOR paper's Figure 10 (JACM'17, Table 1): Figure 2 extended
// with N groups of three threads q_i, r_i, s_i over their own x_i, y_i, z_i, and a thread
// p that reads x_i and, if s_i wrote it, starts group i + 1 and goes on with x_{i+1}.
//   q: y := 1    r: if (y == 0) z := 1    s: if (z == 1 && y == 0) x := 1
// 4N + 1 traces (Table 1: 5, 9, 13, 17, 21 for N = 1..5 under optimal-DPOR). Source-DPOR
// is sleep-set blocked on a number of executions that grows exponentially with N (3, 11,
// 28, 61, 124 in the paper's implementation): only one schedule of a group reveals its x.
#include <pthread.h>
#include <stdatomic.h>

#ifndef N
#define N 3
#endif

struct group {
    atomic_int x, y, z;
    pthread_t q, r, s;
};
struct group g[N];

static void *q(void *arg) {
    struct group *me = arg;
    atomic_store(&me->y, 1);
    return 0;
}

static void *r(void *arg) {
    struct group *me = arg;
    if (atomic_load(&me->y) == 0)
        atomic_store(&me->z, 1);
    return 0;
}

static void *s(void *arg) {
    struct group *me = arg;
    if (atomic_load(&me->z) == 1 && atomic_load(&me->y) == 0)
        atomic_store(&me->x, 1);
    return 0;
}

static void start(struct group *k) {
    pthread_create(&k->q, 0, q, k);
    pthread_create(&k->r, 0, r, k);
    pthread_create(&k->s, 0, s, k);
}

static void stop(struct group *k) {
    pthread_join(k->q, 0);
    pthread_join(k->r, 0);
    pthread_join(k->s, 0);
}

static void *p(void *arg) {
    (void)arg;
    int i = 0;
    while (atomic_load(&g[i].x) == 1 && i + 1 < N) {
        start(&g[++i]);
    }
    for (int k = 1; k <= i; k++)
        stop(&g[k]);
    return 0;
}

int main(void) {
    pthread_t tp;
    pthread_create(&tp, 0, p, 0);
    start(&g[0]);
    pthread_join(tp, 0);
    stop(&g[0]);
    return 0;
}
