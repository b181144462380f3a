// Waiting on a semaphore after destroying it is misuse.
// expect: verdict=defect kind=sync-misuse line=10
#include <semaphore.h>

sem_t s;

int main(void) {
    sem_init(&s, 0, 2);
    sem_destroy(&s);
    sem_wait(&s);
    return 0;
}
