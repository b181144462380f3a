// main counts its polls of a flag nobody sets, and reads a plain setting at every pass.
// Plain reads are logged for spin detection after the first 64; while the polls are
// hidden they are not (before, the log filled up after 4 096 of them, which ended the
// hidden polls, and the loop went on in cycles of 17 visible polls until the step bound,
// 9 s later). So the loop is cut after 10 000 hidden polls: a livelock at the loop.
// expect: verdict=defect kind=livelock line=19
#include <pthread.h>
#include <stdatomic.h>

atomic_int flag;
int config = 3;

void *idle(void *arg) { return arg; }

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, idle, 0);
    long n = 0;
    while (!atomic_load(&flag)) {
        if (config == 4)
            break;
        n++;
    }
    pthread_join(t, 0);
    return (int)(n & 0);
}
