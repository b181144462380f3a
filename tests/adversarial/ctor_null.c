// A constructor that dereferences NULL: a crash of the execution, not of the checker.
// expect: verdict=defect kind=crash
#include <stddef.h>
int *volatile p = NULL;
__attribute__((constructor)) static void init(void) { *p = 1; }
int main(void) { return 0; }
