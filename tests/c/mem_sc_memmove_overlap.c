// memmove onto a later, overlapping destination under --memory sc (an SV-COMP-style
// program), where the runtime copies word by word itself: it must copy back to front,
// or the bytes it moves first overwrite the ones it has yet to read. memset after it.
// expect: verdict=ok maximal=1
// Derivation: the other thread touches only `flag`; main's accesses to `buf` are its
// own, so the only dependent steps are the create and the join: one configuration.
#include <pthread.h>
#include <string.h>
extern void abort(void);
void reach_error(void) {}
void __VERIFIER_assert(int cond) { if (!cond) { reach_error(); abort(); } }

char buf[24] = "abcdefghijklmnopqrstuvw";
int flag;

void *other(void *arg) { (void)arg; flag = 1; return 0; }

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, other, 0);
    memmove(buf + 3, buf, 19); /* three words and a part, from an unaligned start */
    __VERIFIER_assert(memcmp(buf, "abcabcdefghijklmnopqrsw", 24) == 0);
    memmove(buf, buf + 5, 10); /* an earlier destination: front to back */
    __VERIFIER_assert(memcmp(buf, "cdefghijklhijklmnopqrsw", 24) == 0);
    memset(buf + 1, 'z', 9);
    __VERIFIER_assert(buf[0] == 'c' && buf[1] == 'z' && buf[9] == 'z' && buf[10] == 'h');
    pthread_join(t, 0);
    return 0;
}
