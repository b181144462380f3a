// A 100 MiB allocation fits the default heap of a thread (256 MiB, --heap-size).
// expect: verdict=ok
#include <stdlib.h>
#include <string.h>
#include <assert.h>
int main(void) {
    char *p = malloc(100 << 20);
    assert(p);
    memset(p, 1, 100 << 20);
    free(p);
    return 0;
}
