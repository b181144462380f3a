// tests/c/peterson_unbounded.c as first written, with `turn` an atomic_int: the plain
// `inside` then shares turn's 8-byte word. Known issue (README.md): the runtime makes
// `inside++` a visible step only while the other thread's wait on (want, turn) is
// pending, so the program's visible operations depend on the schedule. dfs finds 248
// traces under read-read independence; source- and classic-DPOR 236 (12 and 30
// sleep-set-blocked executions); optimal-DPOR stops with the error "a thread's visible
// operations depend on the schedule" (before: a debug assertion, "the runtime scheduled
// a sleeping thread"). Model: `programs::peterson_inside_in_turn_word(false)`.
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

atomic_int want[2], turn;
int inside, shared;

void *proc(void *arg) {
    int me = (int)(long)arg, other = 1 - me;
    atomic_store(&want[me], 1);
    atomic_store(&turn, other);
    while (atomic_load(&want[other]) && atomic_load(&turn) == other) {
    }
    inside++;
    assert(inside == 1);
    shared++;
    inside--;
    atomic_store(&want[me], 0);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, proc, (void *)0);
    pthread_create(&b, 0, proc, (void *)1);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(shared == 2);
    return 0;
}
