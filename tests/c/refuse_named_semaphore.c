// Named POSIX semaphores are not supported: refused by name, with a hint.
// expect: refused=sem_open
#include <semaphore.h>
#include <fcntl.h>

int main(void) {
    sem_t *s = sem_open("/unfold-test", O_CREAT, 0600, 1);
    sem_wait(s);
    sem_post(s);
    sem_close(s);
    return 0;
}
