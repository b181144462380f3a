// An SV-COMP-style counting wait on a plain flag (checked under --memory sc, where every
// shared access is a step): the loop's own temporaries are steps too (their addresses
// may have been published), and run without steps along with the hidden polls. No
// defect; the verdict is `incomplete` since larger counts were not explored.
// expect: verdict=incomplete
#include <assert.h>
#include <pthread.h>

extern void __VERIFIER_assume(int);
extern void reach_error(void);

volatile int flag;
int data;

void *writer(void *arg) {
    data = 7;
    flag = 1;
    return arg;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, writer, 0);
    int polls = 0;
    while (flag == 0)
        polls++;
    if (data != 7)
        reach_error();
    pthread_join(t, 0);
    return 0;
}
