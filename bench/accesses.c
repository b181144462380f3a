// The cost of one plain memory access under the race detector: THREADS threads each take
// a shared mutex once (the THREADS! orders are the executions), then update their own
// row of a global array N times over, one read and one write per element (W elements).
// No access races. With `--checkpoints off` every execution runs from the start, so
// `--breakdown`'s "running the program" under the default `--memory races` minus the
// same under `--memory none`, over the accesses of one execution (THREADS * N * W * 2), is
// the cost the race detector and the memory checks add to an access; as in a real
// exploration, each execution starts with a fresh shadow (docs/execution-cost.md, round 24).
//   unfold check bench/accesses.c --checkpoints off --breakdown
//   unfold check bench/accesses.c --checkpoints off --breakdown --memory none
#include <pthread.h>

#ifndef THREADS
#define THREADS 3
#endif
#ifndef N
#define N 20
#endif
#ifndef W
#define W 16
#endif

pthread_mutex_t g = PTHREAD_MUTEX_INITIALIZER;
int order, turn[THREADS];
long row[THREADS][W];

static void *run(void *arg) {
  long i = (long)arg;
  pthread_mutex_lock(&g);
  turn[i] = order++;
  pthread_mutex_unlock(&g);
  for (int k = 0; k < N; k++)
    for (int j = 0; j < W; j++)
      row[i][j] += k;
  return 0;
}

int main(void) {
  pthread_t t[THREADS];
  for (long i = 0; i < THREADS; i++)
    pthread_create(&t[i], 0, run, (void *)i);
  for (int i = 0; i < THREADS; i++)
    pthread_join(t[i], 0);
  return 0;
}
