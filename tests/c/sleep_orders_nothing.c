// A thread that sleeps an hour before it writes does not write late: sleeping orders
// nothing, every schedule is explored (and the sleep returns at once, so this check does
// not take an hour).
// expect: verdict=defect kind=assertion line=25
#include <assert.h>
#include <pthread.h>
#include <time.h>
#include <unistd.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int flag;

void *late(void *arg) {
    sleep(3600);
    usleep(1000000);
    struct timespec t = {1, 0}, rem = {5, 5};
    nanosleep(&t, &rem);
    pthread_mutex_lock(&m);
    flag = 1 + (int)rem.tv_sec;
    pthread_mutex_unlock(&m);
    return arg;
}

static void check(int seen) {
    assert(seen == 0);
}

int main(void) {
    pthread_t a;
    pthread_create(&a, 0, late, 0);
    pthread_mutex_lock(&m);
    int seen = flag;
    pthread_mutex_unlock(&m);
    check(seen);
    pthread_join(a, 0);
    return 0;
}
