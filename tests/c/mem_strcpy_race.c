// Two threads strcpy into one buffer without synchronisation: the copies are the
// program's writes (libc is not instrumented: they were unseen), so the race is reported.
// expect: verdict=defect kind=data-race line=10
#include <pthread.h>
#include <string.h>

char buf[32];

void *writer(void *arg) {
    strcpy(buf, (const char *)arg);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, writer, "hello");
    pthread_create(&b, 0, writer, "world");
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
