// main waits for three flags and the third worker never raises its own: every schedule
// ends with main spinning on three locations nobody will write, a livelock at the loop
// (before the checker kept waits on more than two locations, this was a `bound` defect
// after 100 000 steps).
// expect: verdict=defect kind=livelock line=26 flags=--algorithm=optimal-dpor
#include <pthread.h>
#include <stdatomic.h>

_Alignas(8) atomic_int f1;
_Alignas(8) atomic_int f2;
_Alignas(8) atomic_int f3;

void *w1(void *arg) { (void)arg; atomic_store(&f1, 1); return 0; }
void *w2(void *arg) { (void)arg; atomic_store(&f2, 1); return 0; }
void *w3(void *arg) {
    (void)arg;
    atomic_store(&f1, 2);
    return 0;
}

int main(void) {
    pthread_t t1, t2, t3;
    pthread_create(&t1, 0, w1, 0);
    pthread_create(&t2, 0, w2, 0);
    pthread_create(&t3, 0, w3, 0);
    while (!(atomic_load(&f1) && atomic_load(&f2) && atomic_load(&f3)))
        ;
    pthread_join(t1, 0);
    pthread_join(t2, 0);
    pthread_join(t3, 0);
    return 0;
}
