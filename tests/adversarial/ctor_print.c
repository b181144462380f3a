// A constructor that prints: the output belongs to the program, --json stays one object.
// expect: verdict=ok
#include <stdio.h>
__attribute__((constructor)) static void init(void) { printf("{\"not\": \"json\"}\n"); fflush(stdout); }
int main(void) { return 0; }
