// Two threads add to an `_Atomic double` with `+=`: gcc makes it a compare-exchange loop
// and raises its floating-point exceptions through libatomic's helper
// `__atomic_feraiseexcept`, which the runtime serves (before: an internal error, the
// symbol undefined). No update is lost.
// expect: verdict=ok maximal=6 maximal-rr=4
#include <pthread.h>
#include <assert.h>
_Atomic double total;
void *add(void *arg) {
    total += 1.5;
    return arg;
}
int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, add, 0);
    pthread_create(&b, 0, add, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(total == 3.0);
    return 0;
}
