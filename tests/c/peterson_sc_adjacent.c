// Peterson's mutual exclusion on plain `int`s checked under --memory sc (every access a
// visible step, as SV-COMP programs are checked), its variables adjacent: `turn` and `flag[0]` share one 8-byte word (bytes 0-3 and
// 4-7), `flag[1]` begins the next. Each thread raises its flag, gives the turn away,
// and waits `while (flag[other] && turn == other)`: a spin-wait on two locations,
// each on the bytes it reads. Dependence is byte-aware: a thread's store to its own
// flag commutes with the other's accesses to `turn` in the same word, and the wait on
// `turn` is not woken by a store to `flag[0]`. 10 traces under optimal-, source- and
// classic-DPOR, and dfs (519 429 interleavings, 10 distinct; 12 traces and 8 404 761
// interleavings while a woken spin-wait was performed and its thread tried again: too long for the test
// suite, which pins the count in c_programs.rs, `adjacent_atomics_are_separate_locations`).
// expect: verdict=ok flags=--algorithm=optimal-dpor flags=--memory=sc
#include <pthread.h>
#include <assert.h>

#ifndef ROUNDS
#define ROUNDS 1
#endif

_Alignas(8) struct {
    int turn;
    int flag[2];
} s;
int inside;

static void *proc(void *arg) {
    int me = (int)(long)arg, other = 1 - me;
    for (int r = 0; r < ROUNDS; r++) {
        s.flag[me] = 1;
        s.turn = other;
        while (s.flag[other] && s.turn == other) {
        }
        inside++;
        assert(inside == 1);
        inside--;
        s.flag[me] = 0;
    }
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, proc, (void *)0);
    pthread_create(&b, 0, proc, (void *)1);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
