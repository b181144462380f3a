// Blocks used to their last byte and not beyond: a 13-byte string filled by two threads
// (bytes 0..5 and 6..12, the last block granule only partly the block's), a 16-int array
// filled and summed, a 0-byte malloc never touched, a block grown by realloc and filled
// to its new end, and a struct copied whole. Nothing must be reported.
// expect: verdict=ok maximal=1
// Derivation: the two workers share no lock and touch disjoint bytes; the only visible
// operations are the creates and joins, ordered by program order: one configuration.
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct pair { long a; char tag[3]; };

char *s;

void *low(void *arg) {
    (void)arg;
    for (int i = 0; i < 6; i++)
        s[i] = 'a' + i;
    return 0;
}

void *high(void *arg) {
    (void)arg;
    for (int i = 6; i < 13; i++)
        s[i] = 'a' + i;
    return 0;
}

int main(void) {
    s = malloc(13);
    pthread_t t1, t2;
    pthread_create(&t1, 0, low, 0);
    pthread_create(&t2, 0, high, 0);
    pthread_join(t1, 0);
    pthread_join(t2, 0);
    int ok = s[12] == 'm' && s[0] == 'a';
    int *v = malloc(16 * sizeof *v);
    for (int i = 0; i < 16; i++)
        v[i] = i;
    long sum = 0;
    for (int i = 0; i < 16; i++)
        sum += v[i];
    void *z = malloc(0);
    v = realloc(v, 20 * sizeof *v);
    for (int i = 16; i < 20; i++)
        v[i] = i;
    sum += v[19];
    struct pair *p = malloc(sizeof *p), *q = malloc(sizeof *q);
    p->a = 1;
    p->tag[2] = 'x';
    *q = *p;
    free(p);
    free(q);
    free(z);
    free(v);
    free(s);
    return ok && sum == 120 + 19 && q ? 0 : 1;
}
