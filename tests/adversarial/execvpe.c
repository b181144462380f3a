// expect: refused=`execvpe`
#define _GNU_SOURCE
#include <unistd.h>
int main(void) {
    char *argv[] = {"true", 0}, *envp[] = {0};
    execvpe("true", argv, envp);
    return 0;
}
