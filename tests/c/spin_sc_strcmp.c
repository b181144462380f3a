// Under --memory sc a loop that polls with strcmp waits like one that reads the bytes
// itself: the first read of each call carries the caller's state, so the second call in
// the same state is a spin-wait (on buf's word and the literal's), not 100 000 visible
// steps of polling (a `bound` defect when the string functions' reads became visible
// without it). A wait on two words: the default hands over to optimal-dpor.
// expect: verdict=ok maximal=3 flags=--memory=sc flags=--algorithm=optimal-dpor
// The count is the number of distinct traces dfs finds (39 executions), not derived by
// hand: the order of the copy's write against main's first call and its wait.
#include <pthread.h>
#include <string.h>

char buf[16];

void *writer(void *arg) {
    (void)arg;
    strcpy(buf, "go");
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, writer, 0);
    while (strcmp(buf, "go") != 0)
        ;
    pthread_join(t, 0);
    return 0;
}
