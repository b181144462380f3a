// Posting a semaphore that was never initialised (sem_init) is misuse.
// expect: verdict=defect kind=sync-misuse line=16
#include <pthread.h>
#include <semaphore.h>

sem_t done;

void *worker(void *arg) {
    (void)arg;
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    sem_post(&done);
    pthread_join(t, 0);
    return 0;
}
