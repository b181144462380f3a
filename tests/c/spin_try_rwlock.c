// A writer enters with a pthread_rwlock_trywrlock retry loop and increments a counter;
// main reads it with a pthread_rwlock_tryrdlock retry loop. A failed try changes nothing
// (a load of the lock, whose await count is its unlocks), so the loser waits for an
// unlock after one failed iteration (before: a `bound` defect after 100 000 steps).
// expect: verdict=ok maximal=5
// Derivation: as spin_try_mutex.c: which thread takes the lock first (2 orders), and the
// loser's 0 or 1 failed try while the winner holds it (a failed try is dependent with
// the winner's acquisition and unlock; two read-side operations of different threads
// never meet here: the writer's are write-side); one of the 2 x 2 is one fewer: 5, the
// same under every explorer and dfs (12 executions, 5 distinct).
#include <pthread.h>
#include <assert.h>

pthread_rwlock_t l = PTHREAD_RWLOCK_INITIALIZER;
int counter;

void *writer(void *arg) {
    (void)arg;
    while (pthread_rwlock_trywrlock(&l) != 0)
        ;
    counter++;
    pthread_rwlock_unlock(&l);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, writer, 0);
    while (pthread_rwlock_tryrdlock(&l) != 0)
        ;
    int c = counter;
    pthread_rwlock_unlock(&l);
    assert(c == 0 || c == 1);
    pthread_join(t, 0);
    assert(counter == 1);
    return 0;
}
