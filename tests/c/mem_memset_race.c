// A memset races with a plain read of the buffer it clears: libc's write is reported to
// the race detector as the program's own (before, libc's accesses were unseen and the
// program passed).
// expect: verdict=defect kind=data-race line=9|10
#include <pthread.h>
#include <string.h>

char buf[16] = "not cleared yet";
void *clear(void *arg) { (void)arg; memset(buf, 0, sizeof buf); return 0; }
void *peek(void *arg) { (void)arg; return (void *)(long)buf[8]; }

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, clear, 0);
    pthread_create(&b, 0, peek, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
