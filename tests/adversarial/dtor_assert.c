// A destructor that fails an assertion when main returns: found (destructors run at the
// end of each execution, in the exiting thread).
// expect: verdict=defect kind=assertion
#include <assert.h>
int done;
__attribute__((destructor)) static void fini(void) { assert(done == 2); }
int main(void) {
    done = 1;
    return 0;
}
