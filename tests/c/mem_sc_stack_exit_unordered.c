// A thread publishes the address of a local and returns; another reads through the
// pointer once it sees it. Under --memory sc the read comes before the owner's exit in
// some schedules, after it in others; nothing orders the two: a use of a dead stack.
// expect: verdict=defect kind=stack-use-after-exit line=20 flags=--memory=sc
#include <pthread.h>
#include <stddef.h>
int *volatile shared;
int seen;
void *owner(void *arg) {
    (void)arg;
    int x = 7;
    shared = &x;
    return 0;
}
void *user(void *arg) {
    (void)arg;
    int *q;
    while (!(q = shared))
        ;
    seen = *q;
    return 0;
}
int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, owner, 0);
    pthread_create(&b, 0, user, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
