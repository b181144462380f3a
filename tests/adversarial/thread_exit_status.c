// _exit(3) in a thread: the program's exit with status 3 (defect `exit`), not the end of
// the check.
// expect: verdict=defect kind=exit
#include <pthread.h>
#include <unistd.h>
void *t(void *a) {
    (void)a;
    _exit(3);
}
int main(void) {
    pthread_t h;
    pthread_create(&h, 0, t, 0);
    pthread_join(h, 0);
    return 0;
}
