// sync_poll_under_spinlock.c with the flag published before the data: the poller, waiting
// under the spinlock, still sees the flag before the data in one schedule.
// expect: verdict=defect kind=assertion|data-race line=30|41
#define BUG
#include "sync_poll_under_spinlock.c"
