// Loops that read a local where the instrumentation does not show the read as the
// program's, then write the local plainly: the worker's exit test loads `x` with an
// atomic builtin, the comparer's compares `buf` with `strcmp` (libc's read, reported
// without the caller's frame). Each loop's first iteration reads what is there and
// overwrites it, so its second iteration leaves. The local differs between the two
// visits of the loop's atomic load of `flag`, and the first access to it that the
// instrumented code shows is the write: taken for a dead byte (docs/memory.md, "Dead
// temporaries"), it made the second visit a spin, and the thread waited for a write to
// `flag` that never came, a false `livelock`. The runtime now logs both reads of a stack
// location (without either, the corresponding thread is reported spinning). Builtins,
// not `atomic_load`, so that no address temporary is written for the first time in the
// first iteration, which would keep its two visits apart anyway; threads of their own,
// as a thread that called a shim compares no first visit.
// expect: verdict=ok
#include <pthread.h>
#include <string.h>

int flag;

void *worker(void *arg) {
    int x = 5;
    for (;;) {
        (void)__atomic_load_n(&flag, __ATOMIC_SEQ_CST);
        if (__atomic_load_n(&x, __ATOMIC_SEQ_CST) == 0)
            break;
        x = 0;
    }
    return arg;
}

void *comparer(void *arg) {
    char buf[4] = "ab";
    for (;;) {
        (void)__atomic_load_n(&flag, __ATOMIC_SEQ_CST);
        if (strcmp(buf, "xy") == 0)
            break;
        buf[0] = 'x';
        buf[1] = 'y';
    }
    return arg;
}

int main(void) {
    pthread_t t, u;
    pthread_create(&t, 0, worker, 0);
    pthread_create(&u, 0, comparer, 0);
    pthread_join(t, 0);
    pthread_join(u, 0);
    return 0;
}
