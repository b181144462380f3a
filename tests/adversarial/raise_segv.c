// A program that sends itself SIGSEGV (`raise`), as some programs do on a failed check:
// there is no faulting instruction to execute again, and the checker's crash handler
// must still end the execution as a crash of the program, not let it go on.
// expect: verdict=defect kind=crash
#include <pthread.h>
#include <signal.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int checked = 0;

int main(void) {
    pthread_mutex_lock(&m);
    if (!checked)
        raise(SIGSEGV);
    pthread_mutex_unlock(&m);
    return 0;
}
