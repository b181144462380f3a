// A failing assertion, then a destructor that calls _exit(0): the defect stands (a
// failed assertion ends the program before destructors, and a destructor never runs
// in the checker).
// expect: verdict=defect kind=assertion
#include <assert.h>
#include <unistd.h>
__attribute__((destructor)) static void fini(void) { _exit(0); }
int x;
int main(void) {
    assert(x == 1);
    return 0;
}
