// A request no machine can serve gets NULL, as from libc: not the checker's limit.
// expect: verdict=ok
#include <stdlib.h>
#include <assert.h>
#include <stdint.h>
int main(void) {
    void *p = malloc(SIZE_MAX / 2);
    assert(p == NULL);
    return 0;
}
