// Three threads take one lock in turn; main then crashes at a line that names the order
// they took it in, so every one of the six orders is its own crash defect, and every
// execution kills the worker. With --keep-going each explorer must list all six: a
// worker spawned after a crash once took the crashed request for a new one and re-ran
// it now and then, losing the next order.
// expect: verdict=defect kind=crash
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int order[3], n;

void *take(void *arg) {
    pthread_mutex_lock(&m);
    order[n++] = (int)(long)arg;
    pthread_mutex_unlock(&m);
    return 0;
}

#define CRASH (*(volatile int *)0 = 1)

int main(void) {
    pthread_t t[3];
    for (long i = 0; i < 3; i++) pthread_create(&t[i], 0, take, (void *)i);
    for (int i = 0; i < 3; i++) pthread_join(t[i], 0);
    switch (order[0] * 3 + order[1]) {
    case 1: CRASH; break; /* 0 1 2 */
    case 2: CRASH; break; /* 0 2 1 */
    case 3: CRASH; break; /* 1 0 2 */
    case 5: CRASH; break; /* 1 2 0 */
    case 6: CRASH; break; /* 2 0 1 */
    default: CRASH; break; /* 2 1 0 */
    }
    return 0;
}
