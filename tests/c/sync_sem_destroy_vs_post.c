// main destroys a semaphore a worker posts, with nothing ordering the two: a post after
// the destroy is a misuse. sem_destroy was no scheduling point and the post was checked
// when its call began, so every explorer ran one order and passed. The destroy is now a
// visible read of the semaphore (dependent with posts and waits), and the post is
// checked again once performed.
// expect: verdict=defect kind=sync-misuse line=12
#include <pthread.h>
#include <semaphore.h>
sem_t s;
void *poster(void *arg) {
    (void)arg;
    sem_post(&s);
    return 0;
}
int main(void) {
    pthread_t t;
    sem_init(&s, 0, 0);
    pthread_create(&t, 0, poster, 0);
    sem_destroy(&s);
    pthread_join(t, 0);
    return 0;
}
