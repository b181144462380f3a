// A raw fork through syscall(): refused by name before anything runs.
// expect: refused=`syscall`
#define _GNU_SOURCE
#include <sys/syscall.h>
#include <unistd.h>
int main(void) {
    syscall(SYS_fork);
    return 0;
}
