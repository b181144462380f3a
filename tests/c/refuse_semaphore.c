// Semaphores are not supported: refused by name.
// expect: refused=sem_wait
#include <semaphore.h>

sem_t s;

int main(void) {
    sem_init(&s, 0, 1);
    sem_wait(&s);
    return 0;
}
