// A memcpy is not atomic: under --memory sc (chosen for this SV-COMP-style program) each
// 8-byte word it writes is a visible step, so a reader can see one word of the copy and
// not the other. Before the copy's accesses were reported, libc wrote the whole block
// at once, unseen, and only dfs (which runs every interleaving of the other steps)
// found the failure.
// expect: verdict=defect kind=assertion line=15
// Traces (every explorer, with --keep-going; c_programs.rs checks them): the reader's
// read of data[0] comes before or after the copy's write of the first word, its read of
// data[3] before or after the write of the second: 2 x 2 = 4 traces; the two where
// exactly one read sees the copy fail.
#include <pthread.h>
#include <string.h>
extern void abort(void);
void reach_error(void) {}
void __VERIFIER_assert(int cond) { if (!cond) { reach_error(); abort(); } }

int data[4];
int src[4] = {7, 7, 7, 7};

void *writer(void *arg) { (void)arg; memcpy(data, src, sizeof data); return 0; }
void *reader(void *arg) { (void)arg; int a = data[0], b = data[3]; __VERIFIER_assert(a == b); return 0; }

int main(void) {
    pthread_t w, r;
    pthread_create(&w, 0, writer, 0);
    pthread_create(&r, 0, reader, 0);
    pthread_join(w, 0);
    pthread_join(r, 0);
    return 0;
}
