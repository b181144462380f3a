// A mutex whose bytes are garbage (never initialised: no pthread_mutex_init, no static
// initializer) is locked: lock-before-init is mutex misuse, not a silent success.
// expect: verdict=defect kind=mutex-misuse line=13
#include <pthread.h>
#include <string.h>

struct account { int balance; pthread_mutex_t lock; };
struct account acct;

int main(void) {
    // A stand-in for memory recycled from an earlier use: not a valid mutex.
    memset(&acct, 0x5a, sizeof acct);
    pthread_mutex_lock(&acct.lock);
    acct.balance = 1;
    pthread_mutex_unlock(&acct.lock);
    return 0;
}
