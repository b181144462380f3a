// Two consumers poll one mutex's plain counter and each takes one item when it finds
// one (lock, read, take if positive, unlock, repeat until taken); main puts two items
// under the mutex. The consumers' weak unlocks (no write since their previous unlock)
// wake no poller, so the two do not keep each other running; main's unlock, which
// published the items, wakes both. No race, no failure, no livelock: both items are
// taken in every schedule. A poll that found nothing is an assumption: the consumer
// stops, and its attempt after main's unlock is another execution. The model
// `programs::pollers_of_one_mutex(2, true, 2, 2)` is this program step for step: 114
// traces under both relations, 1 087 schedules (dfs: 1 087 executions; with waits woken
// by main's unlock, 802 traces under read-read independence and 1 086 under QPOR's).
// expect: verdict=ok maximal=114
#include <pthread.h>
#include <assert.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int items;

void *consumer(void *a) {
    (void)a;
    for (;;) {
        pthread_mutex_lock(&m);
        int r = items;
        if (r > 0) items = r - 1;
        pthread_mutex_unlock(&m);
        if (r) break;
    }
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, consumer, 0);
    pthread_create(&b, 0, consumer, 0);
    pthread_mutex_lock(&m);
    items = 2;
    pthread_mutex_unlock(&m);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(items == 0);
    return 0;
}
