// Two threads join the same worker: POSIX leaves a second join undefined (glibc may
// crash or hang), so whichever join returns second is a misuse. Before, the program
// passed.
// expect: verdict=defect kind=sync-misuse line=12|19
#include <pthread.h>
pthread_t worker;
void *work(void *arg) {
    return arg;
}
void *joiner(void *arg) {
    (void)arg;
    pthread_join(worker, 0);
    return 0;
}
int main(void) {
    pthread_t j;
    pthread_create(&worker, 0, work, 0);
    pthread_create(&j, 0, joiner, 0);
    pthread_join(worker, 0);
    pthread_join(j, 0);
    return 0;
}
