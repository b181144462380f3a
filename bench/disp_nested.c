// A job dispatcher with nested, data-dependent critical sections (the shape of the
// QPOR paper's "Disp(s,r)", section 6: s servers, r requests, Th = s + r + 1).
//
// Each of REQUESTS client threads picks a server from its own id (data-dependent lock
// choice) and walks the servers from there: under the server's lock it looks at the
// server's one-request mailbox; if it is free it posts its request and, still holding
// the server's lock, records the post in the global ledger under a second lock (a
// critical section nested in another); if it is taken it moves on to the next server,
// at most HOPS times (conditional interaction: whether two clients meet depends on who
// came first). Each of SERVERS server threads polls its mailbox POLLS times; a request
// found is served under the ledger lock, nested in the server's lock. Invariants of the
// ledger are asserted inside the nested sections; main checks the totals at the end.
//   unfold check bench/disp_nested.c -D SERVERS=5 -D REQUESTS=2
#include <pthread.h>
#include <assert.h>

#ifndef SERVERS
#define SERVERS 5
#endif
#ifndef REQUESTS
#define REQUESTS 2
#endif
#ifndef POLLS
#define POLLS 1
#endif
#ifndef HOPS
#define HOPS 2
#endif

pthread_mutex_t server_lock[SERVERS];
int mailbox[SERVERS]; /* 0: free, otherwise 1 + the client's id */
pthread_mutex_t ledger_lock = PTHREAD_MUTEX_INITIALIZER;
int posted = 0, served = 0, dropped = 0;

void *client(void *arg) {
    long id = (long)arg;
    int s = (int)(id % 2);
    pthread_mutex_lock(&server_lock[s]);
    for (int hop = 0;; hop++) {
        if (mailbox[s] == 0) {
            mailbox[s] = (int)id + 1;
            pthread_mutex_lock(&ledger_lock);
            posted++;
            assert(served < posted);
            pthread_mutex_unlock(&ledger_lock);
            pthread_mutex_unlock(&server_lock[s]);
            return 0;
        }
        if (hop == HOPS)
            break;
        /* Hand over hand: the next server's lock is taken before this one is let go. */
        int next = (s + 1) % SERVERS;
        pthread_mutex_lock(&server_lock[next]);
        pthread_mutex_unlock(&server_lock[s]);
        s = next;
    }
    pthread_mutex_unlock(&server_lock[s]);
    pthread_mutex_lock(&ledger_lock);
    dropped++;
    pthread_mutex_unlock(&ledger_lock);
    return 0;
}

void *server(void *arg) {
    long s = (long)arg;
    for (int i = 0; i < POLLS; i++) {
        pthread_mutex_lock(&server_lock[s]);
        int req = mailbox[s];
        if (req != 0) {
            mailbox[s] = 0;
            pthread_mutex_lock(&ledger_lock);
            served++;
            assert(req >= 1 && req <= REQUESTS);
            assert(served <= posted);
            pthread_mutex_unlock(&ledger_lock);
        }
        pthread_mutex_unlock(&server_lock[s]);
    }
    return 0;
}

int main(void) {
    pthread_t srv[SERVERS], cli[REQUESTS];
    for (int s = 0; s < SERVERS; s++)
        pthread_mutex_init(&server_lock[s], 0);
    for (long s = 0; s < SERVERS; s++)
        pthread_create(&srv[s], 0, server, (void *)s);
    for (long c = 0; c < REQUESTS; c++)
        pthread_create(&cli[c], 0, client, (void *)c);
    for (int c = 0; c < REQUESTS; c++)
        pthread_join(cli[c], 0);
    for (int s = 0; s < SERVERS; s++)
        pthread_join(srv[s], 0);
    int waiting = 0;
    for (int s = 0; s < SERVERS; s++)
        waiting += mailbox[s] != 0;
    assert(posted + dropped == REQUESTS);
    assert(served + waiting == posted);
    return 0;
}
