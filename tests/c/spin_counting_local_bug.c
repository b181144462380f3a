// A poll that counts in a local the instrumentation sees (a helper increments it through
// a pointer: every read and write of it goes through the memory hooks, and no register
// holds it at the loop's load): `bump` reads the count before it writes it, so the count's
// bytes are not dead where the loop comes back to its load ("Dead
// temporaries" in docs/memory.md) and the loop is a counting poll, not a spin: its first
// polls are steps, and the schedule where the setter runs after main's third poll fails
// the assertion. Taking every byte that differs and that the iteration accessed for dead,
// as if a read came after a write, made main wait after its first poll: `ok`.
// expect: verdict=defect kind=assertion line=29
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

atomic_int flag;

void *setter(void *arg) {
    atomic_store(&flag, 1);
    return arg;
}

__attribute__((noinline)) static void bump(int *n) { *n += 1; }

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, setter, 0);
    int polls = 0;
    while (!atomic_load(&flag))
        bump(&polls);
    assert(polls < 3);
    pthread_join(t, 0);
    return 0;
}
