// An allocation beyond --heap-size is the checker's limit, reported as such (an error of
// the checker, exit status 2), never as the program's fault (malloc returning NULL).
// args: --heap-size 64M
// expect: limit=heap limit of the checker reached
#include <stdlib.h>
#include <assert.h>
int main(void) {
    char *p = malloc(100 << 20);
    assert(p);
    free(p);
    return 0;
}
