// A constructor that exits with status 3: the program's exit, reported as the defect
// `exit` of this execution (not the checker ending).
// expect: verdict=defect kind=exit
#include <stdlib.h>
__attribute__((constructor)) static void init(void) { exit(3); }
int main(void) { return 0; }
