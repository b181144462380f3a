// A bounded wait: main polls a flag at most 500 times, then gives up and fails. Its polls
// after the 17th run without scheduling points, so in the schedule where the writer has
// not run, the loop still counts to 500 and takes its way out: the assertion fails.
// expect: verdict=defect kind=assertion line=22
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

atomic_int flag;

void *writer(void *arg) {
    atomic_store(&flag, 1);
    return arg;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, writer, 0);
    int i = 0;
    while (i < 500 && !atomic_load(&flag))
        i++;
    assert(i < 500);
    pthread_join(t, 0);
    return 0;
}
