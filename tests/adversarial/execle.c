// expect: refused=`execle`
#include <unistd.h>
int main(void) {
    char *envp[] = {0};
    execle("/bin/true", "true", (char *)0, envp);
    return 0;
}
