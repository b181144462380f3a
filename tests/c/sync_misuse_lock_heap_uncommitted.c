// Locking through a pointer into the heap arena's reserved but uncommitted address space
// (32 MiB past a 16-byte block: the page is not mapped) is reported as mutex misuse. The
// lock shims skip the kernel probe of an object pointer when it lies in the program's
// data or in committed heap (runtime/src/sync.rs, `readable`); this checks that the skip
// does not cover the rest of a thread's heap slot.
// expect: verdict=defect kind=mutex-misuse line=13
#include <pthread.h>
#include <stdlib.h>

int main(void) {
    char *p = malloc(16);
    pthread_mutex_t *m = (pthread_mutex_t *)(p + (32 << 20));
    pthread_mutex_lock(m);
    free(p);
    return 0;
}
