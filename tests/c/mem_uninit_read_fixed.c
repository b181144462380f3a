// mem_uninit_read.c fixed: the table comes from calloc (zeroed), and a realloc'd copy
// keeps the initialised bytes it copied; every slot read is initialised.
// expect: verdict=ok maximal=1 flags=--check-uninit
// Derivation: one create and one join, no shared object besides them: one
// configuration.
#include <pthread.h>
#include <stdlib.h>

#define N 4
int *table;

void *sum(void *arg) {
    (void)arg;
    long s = 0;
    for (int i = 0; i < N; i++)
        s += table[i];
    return (void *)s;
}

int main(void) {
    table = calloc(N / 2, sizeof *table);
    table[0] = 1;
    table = realloc(table, N * sizeof *table);
    table[2] = 2;
    table[3] = 3;
    pthread_t t;
    pthread_create(&t, 0, sum, 0);
    pthread_join(t, 0);
    free(table);
    return 0;
}
