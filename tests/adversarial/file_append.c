// A program that appends to a file in every execution: files are not reset between
// executions, so unfold warns (once) that executions may see each other's writes.
// expect: verdict=ok
// stderr: the program uses files (fopen)
#include <pthread.h>
#include <stdio.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int n;
void *t(void *a) {
    (void)a;
    pthread_mutex_lock(&m);
    n++;
    pthread_mutex_unlock(&m);
    return 0;
}
int main(void) {
    pthread_t h;
    pthread_create(&h, 0, t, 0);
    pthread_mutex_lock(&m);
    n++;
    pthread_mutex_unlock(&m);
    pthread_join(h, 0);
    FILE *f = fopen("appended.txt", "a");
    if (f) {
        fprintf(f, "%d\n", n);
        fclose(f);
    }
    return 0;
}
