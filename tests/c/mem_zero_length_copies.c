// memcpy, memmove and memset of zero bytes access nothing, whatever their pointers (null
// here): no race on `x`, no invalid access. Their accesses are reported as the program's
// own; the first version reported one byte for a zero-length call, a false race here.
// expect: verdict=ok maximal=1
// Derivation: no byte is accessed but by the create and the join: one configuration.
#include <pthread.h>
#include <string.h>

int x;

void *other(void *arg) {
    (void)arg;
    memcpy(0, 0, 0);
    memset(0, 0, 0);
    memmove(&x, 0, 0);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, other, 0);
    memset(&x, 0, 0);
    pthread_join(t, 0);
    return 0;
}
