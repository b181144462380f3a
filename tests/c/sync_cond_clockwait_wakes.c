// pthread_cond_clockwait can be woken by a signal: some execution returns 0
// (sync_cond_clockwait_times_out.c on CLOCK_MONOTONIC, counting wake-ups).
// expect: verdict=defect kind=assertion line=40
#define WAKES
#include "sync_cond_clockwait_times_out.c"
