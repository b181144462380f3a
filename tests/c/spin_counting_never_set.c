// main counts its polls of a flag no thread ever sets: after 17 polls as steps and 10 000
// without scheduling points, the loop is cut by an assumption on the flag, and since no
// thread writes it afterwards, that is a livelock at the loop (before: a `bound` defect
// after 100 000 steps).
// expect: verdict=defect kind=livelock line=18
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

atomic_int flag;

void *idle(void *arg) { return arg; }

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, idle, 0);
    unsigned polls = 0;
    while (atomic_load(&flag) == 0)
        polls++;
    printf("%u\n", polls);
    pthread_join(t, 0);
    return 0;
}
