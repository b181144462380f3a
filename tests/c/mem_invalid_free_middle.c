// A parser advances its buffer pointer, then frees the advanced pointer: free of a
// pointer into the middle of a block (line 17), which malloc did not return.
// expect: verdict=defect kind=invalid-free line=17
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

void *parse(void *arg) {
    (void)arg;
    char *buf = malloc(16);
    buf[0] = ' ';
    buf[1] = 'x';
    buf[2] = 0;
    while (*buf == ' ')
        buf++;
    int ok = *buf == 'x';
    free(buf);
    return (void *)(long)ok;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, parse, 0);
    pthread_join(t, 0);
    return 0;
}
