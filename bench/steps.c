// The cost of one visible step: THREADS threads each take a shared mutex once (the
// THREADS! orders are the executions), then take and release their own mutex N times.
// With `--checkpoints off` every execution runs from the start, so `--breakdown`'s
// "running the program" (per execution) divided by the steps of one execution (the
// visible steps over the executions) is the worker's cost per step
// (scheduler, shims, race detector, the step's hand-over); later executions reuse the
// shared memory the first one wrote, as executions of a real exploration do. That cost
// bounds the cost of an execution from below: docs/execution-cost.md, round 21.
//   unfold check bench/steps.c -D N=5000 --checkpoints off --breakdown
#include <pthread.h>

#ifndef THREADS
#define THREADS 3
#endif
#ifndef N
#define N 1000
#endif

pthread_mutex_t g = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t m[THREADS];
int order, turn[THREADS];

static void *run(void *arg) {
  long i = (long)arg;
  pthread_mutex_lock(&g);
  turn[i] = order++;
  pthread_mutex_unlock(&g);
  for (int k = 0; k < N; k++) {
    pthread_mutex_lock(&m[i]);
    pthread_mutex_unlock(&m[i]);
  }
  return 0;
}

int main(void) {
  pthread_t t[THREADS];
  for (long i = 0; i < THREADS; i++) {
    pthread_mutex_init(&m[i], 0);
    pthread_create(&t[i], 0, run, (void *)i);
  }
  for (int i = 0; i < THREADS; i++)
    pthread_join(t[i], 0);
  return 0;
}
