// sync_poll_under_rwlock.c with the flag published in one write section and the data in
// a later one: the reader, waiting between its polls, still sees the flag before the data.
// expect: verdict=defect kind=assertion line=29
#define BUG
#include "sync_poll_under_rwlock.c"
