// A program that overwrites every shared mapping of its process (where the checker keeps
// its trace and thread table) with garbage: a clear error of the checker, never a wrong
// verdict or undefined behaviour in the checker.
// expect: error=corrupted the checker's memory
#include <stdio.h>
#include <string.h>
#include <pthread.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int main(void) {
    FILE *f = fopen("/proc/self/maps", "r");
    char line[512];
    unsigned long lo, hi;
    char perms[8];
    while (f && fgets(line, sizeof line, f)) {
        if (sscanf(line, "%lx-%lx %7s", &lo, &hi, perms) == 3 && perms[3] == 's' && perms[1] == 'w')
            memset((void *)lo, 0xab, hi - lo);
    }
    pthread_mutex_lock(&m);
    pthread_mutex_unlock(&m);
    return 0;
}
