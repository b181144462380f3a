// A program whose visible steps depend on something besides the schedule: a counter in
// a file, which each execution bumps, picks the mutex main locks first. The second
// execution replays the first's opening step and the program takes the other lock
// there: unfold stops with a divergence naming the step, not with a wrong verdict.
// expect: error=replay diverged at step 0
#include <pthread.h>
#include <stdio.h>

pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER, b = PTHREAD_MUTEX_INITIALIZER;

void *other(void *arg) {
    pthread_mutex_lock(&b);
    pthread_mutex_unlock(&b);
    return arg;
}

int main(void) {
    int n = 0;
    FILE *f = fopen("runs.txt", "r");
    if (f) {
        if (fscanf(f, "%d", &n) != 1)
            n = 0;
        fclose(f);
    }
    f = fopen("runs.txt", "w");
    if (f) {
        fprintf(f, "%d\n", n + 1);
        fclose(f);
    }
    pthread_mutex_t *m = n % 2 ? &a : &b;
    pthread_mutex_lock(m);
    pthread_mutex_unlock(m);
    pthread_t t;
    pthread_create(&t, 0, other, 0);
    pthread_mutex_lock(&b);
    pthread_mutex_unlock(&b);
    pthread_join(t, 0);
    return 0;
}
