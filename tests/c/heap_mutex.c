// Mutexes inside heap objects (deterministic per-thread arena), initialised with
// pthread_mutex_init and destroyed after use; threads allocate too.
// expect: verdict=ok maximal=2
// Derivation: the workers share acct->m (lock+unlock each): 2 orders. Their private
// allocations and main's final destroy (a trylock+unlock after both joins) add no
// ordering choice.
#include <pthread.h>
#include <stdlib.h>
#include <assert.h>

struct account {
    pthread_mutex_t m;
    int balance;
};

void *worker(void *arg) {
    struct account *acct = arg;
    int *scratch = malloc(sizeof *scratch);
    *scratch = 1;
    pthread_mutex_lock(&acct->m);
    acct->balance += *scratch;
    pthread_mutex_unlock(&acct->m);
    free(scratch);
    return 0;
}

int main(void) {
    struct account *acct = calloc(1, sizeof *acct);
    pthread_mutex_init(&acct->m, 0);
    pthread_t a, b;
    pthread_create(&a, 0, worker, acct);
    pthread_create(&b, 0, worker, acct);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(acct->balance == 2);
    pthread_mutex_destroy(&acct->m);
    acct = realloc(acct, 2 * sizeof *acct);
    assert(acct->balance == 2);
    free(acct);
    return 0;
}
