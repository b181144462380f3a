// main destroys a semaphore its worker is blocked on (the worker announces its
// sem_wait when it first runs, and nothing ever posts): POSIX leaves the destroy
// undefined, and it is reported there, a sync-misuse at line 21 in every schedule
// (before, only the deadlock of the worker that follows was; it is now a consequence
// of the misuse, not a second defect).
// expect: verdict=defect kind=sync-misuse line=21
#include <pthread.h>
#include <semaphore.h>

sem_t s;

void *worker(void *arg) {
    sem_wait(&s);
    return arg;
}

int main(void) {
    pthread_t t;
    sem_init(&s, 0, 0);
    pthread_create(&t, 0, worker, 0);
    sem_destroy(&s);
    pthread_join(t, 0);
    return 0;
}
