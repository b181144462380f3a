// unfold's read-write lock is reader-preferring (a reader gets it whenever no writer holds
// it): a lock of the writer-preferring kind, whose readers wait behind a waiting writer,
// would have behaviours (a recursive read lock's deadlock) unfold misses. Setting the kind
// is accepted (it can be read back); initialising a lock with it stops the check, naming it.
// expect: refused=PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP
#include <pthread.h>
#include <assert.h>

int main(void) {
    pthread_rwlockattr_t a;
    pthread_rwlock_t l;
    int kind;
    pthread_rwlockattr_init(&a);
    assert(pthread_rwlockattr_setkind_np(&a, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP) == 0);
    assert(pthread_rwlockattr_getkind_np(&a, &kind) == 0);
    assert(kind == PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
    pthread_rwlock_init(&l, &a);
    pthread_rwlock_rdlock(&l);
    pthread_rwlock_unlock(&l);
    return 0;
}
