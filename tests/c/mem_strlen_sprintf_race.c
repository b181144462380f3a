// A thread formats into a buffer with sprintf while main measures it with strlen: a
// read of the bytes sprintf writes, unordered with it.
// expect: verdict=defect kind=data-race line=11|18
#include <pthread.h>
#include <stdio.h>
#include <string.h>

char line[32];

void *formatter(void *arg) {
    sprintf(line, "item %d", (int)(long)arg);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, formatter, (void *)7);
    size_t n = strlen(line);
    pthread_join(t, 0);
    return n > 100;
}
