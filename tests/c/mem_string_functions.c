// The string functions unfold makes visible (strcpy, strncpy, strcat, strncat, strlen,
// strcmp, strncmp, memcmp, sprintf, snprintf) still compute what libc computes, and
// their accesses, ordered by a mutex or by join, are no race; a struct's padding compared
// by memcmp is no uninitialised read, and a heap string built by them is initialised.
// Their addresses can be taken (a comparator for qsort).
// expect: verdict=ok maximal=2
// Derivation: the two workers' critical sections on m in either order; the rest is
// ordered by create and join.
#include <pthread.h>
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
char shared[64];
struct padded { char c; long l; };

static int by_text(const void *a, const void *b) {
    int (*cmp)(const char *, const char *) = strcmp;
    return cmp(*(char *const *)a, *(char *const *)b);
}

void *worker(void *arg) {
    pthread_mutex_lock(&m);
    if (strlen(shared) == 0)
        strcpy(shared, (const char *)arg);
    else
        strcat(shared, (const char *)arg);
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    char d[16];
    memset(d, 'x', sizeof d);
    strncpy(d, "ab", 6);
    assert(d[0] == 'a' && d[1] == 'b' && d[2] == 0 && d[5] == 0 && d[6] == 'x');
    strncpy(d, "abcdefgh", 4);
    assert(d[3] == 'd' && d[4] == 0);
    strcpy(d, "ab");
    strncat(d, "cdef", 2);
    assert(strcmp(d, "abcd") == 0 && strlen(d) == 4);
    assert(strncmp(d, "abzz", 2) == 0 && strncmp(d, "abzz", 3) < 0);
    assert(memcmp("abc", "abd", 2) == 0 && memcmp("abc", "abd", 3) < 0);
    assert(snprintf(d, 4, "%d", 123456) == 6 && strcmp(d, "123") == 0);
    char *big = malloc(400);
    int n = sprintf(big, "%0300d|%s", 7, "end");
    assert(n == 304 && strlen(big) == 304 && strcmp(big + 301, "end") == 0);
    char *copy = malloc(strlen(big) + 1);
    strcpy(copy, big);
    assert(strcmp(copy, big) == 0);
    free(big);
    free(copy);
    // Longer than what is formatted aside: formatted in place.
    big = malloc(6000);
    assert(sprintf(big, "%05000d%s", 1, "tail") == 5004 && strcmp(big + 5000, "tail") == 0);
    assert(snprintf(big, 4500, "%05000d", 2) == 5000 && strlen(big) == 4499);
    free(big);
    const char *words[3] = {"pear", "apple", "fig"};
    qsort(words, 3, sizeof *words, by_text);
    size_t (*len)(const char *) = strlen;
    assert(strcmp(words[0], "apple") == 0 && len(words[2]) == 4);
    struct padded *p = malloc(sizeof *p), *q = malloc(sizeof *q);
    p->c = q->c = 1;
    p->l = q->l = 2;
    (void)memcmp(p, q, sizeof *p);
    free(p);
    free(q);

    pthread_t a, b;
    pthread_create(&a, 0, worker, "one");
    pthread_create(&b, 0, worker, "two");
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(strcmp(shared, "onetwo") == 0 || strcmp(shared, "twoone") == 0);
    return 0;
}
