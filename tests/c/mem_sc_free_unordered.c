// Under --memory sc a free is no scheduling point: the reader's load runs first in every
// schedule the explorers pick, the free after it. Nothing orders the two, so some
// schedule frees the block first: a use after free (it was missed: with no data races
// under sc, the free had nothing to meet).
// expect: verdict=defect kind=use-after-free line=12 flags=--memory=sc
#include <pthread.h>
#include <stdlib.h>
int *p;
int seen;
void *reader(void *arg) {
    (void)arg;
    seen = *p;
    return 0;
}
void *freer(void *arg) {
    (void)arg;
    free(p);
    return 0;
}
int main(void) {
    p = malloc(sizeof *p);
    *p = 1;
    pthread_t a, b;
    pthread_create(&a, 0, reader, 0);
    pthread_create(&b, 0, freer, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
