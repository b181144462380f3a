// A table is allocated with malloc and only some of its slots are filled before a
// worker sums it: with --check-uninit, the read of a never-written slot (line 16) is
// reported with the allocation (line 21).
// expect: verdict=defect kind=uninit-read line=16 flags=--check-uninit
#include <pthread.h>
#include <stdlib.h>

#define N 4
int *table;
int filled;

void *sum(void *arg) {
    (void)arg;
    long s = 0;
    for (int i = 0; i < N; i++)
        s += table[i];
    return (void *)s;
}

int main(void) {
    table = malloc(N * sizeof *table);
    for (int i = 0; i < N - 1; i++)
        table[i] = i;
    pthread_t t;
    pthread_create(&t, 0, sum, 0);
    pthread_join(t, 0);
    free(table);
    return 0;
}
