// main retries sem_trywait on a semaphore the other thread posts only if it reads a flag
// main never sets: a livelock naming the semaphore and the loop's line.
// expect: verdict=defect kind=livelock line=22
#include <pthread.h>
#include <semaphore.h>
#include <stdatomic.h>

sem_t s;
atomic_int go;

void *poster(void *arg) {
    (void)arg;
    if (atomic_load(&go))
        sem_post(&s);
    return 0;
}

int main(void) {
    pthread_t t;
    sem_init(&s, 0, 0);
    pthread_create(&t, 0, poster, 0);
    while (sem_trywait(&s) != 0)
        ;
    pthread_join(t, 0);
    return 0;
}
