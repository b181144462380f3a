// A walker takes the list head under the lock and follows it after unlocking; a popper
// unlinks the first node under the lock and frees it after. Under --memory sc the
// walker's reads of the node (its value and its link, one defect each) can follow the
// free: nothing but the lock orders the two threads, and the walk is outside it.
// expect: verdict=defect kind=use-after-free line=28 flags=--memory=sc
#include <pthread.h>
#include <stdlib.h>
struct node {
    int v;
    struct node *next;
} *head;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int sum;
void *pop(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    struct node *n = head;
    if (n) head = n->next;
    pthread_mutex_unlock(&m);
    free(n);
    return 0;
}
void *walk(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    struct node *n = head;
    pthread_mutex_unlock(&m);
    for (; n; n = n->next) sum += n->v;
    return 0;
}
int main(void) {
    for (int i = 0; i < 2; i++) {
        struct node *n = malloc(sizeof *n);
        n->v = i;
        n->next = head;
        head = n;
    }
    pthread_t a, b;
    pthread_create(&a, 0, walk, 0);
    pthread_create(&b, 0, pop, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
