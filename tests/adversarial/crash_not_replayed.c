// A crash that depends on something besides the schedule: the first execution finds no
// file `crashed.txt`, writes it and dies of a null pointer write (SIGSEGV); the replay that builds the report
// finds the file and ends normally. unfold must not report the exploration as complete
// (the crash may have cut it short), nor drop the finding silently: the verdict is
// incomplete, with a warning naming the finding.
// expect: verdict=incomplete
#include <pthread.h>
#include <stdio.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

int main(void) {
    pthread_mutex_lock(&m);
    FILE *f = fopen("crashed.txt", "r");
    if (f) {
        fclose(f);
    } else {
        f = fopen("crashed.txt", "w");
        if (f)
            fclose(f);
        *(volatile int *)0 = 1;
    }
    pthread_mutex_unlock(&m);
    return 0;
}
