// A 3 MiB local array in main and in a thread fits the default 8 MiB stacks.
// expect: verdict=ok
#include <pthread.h>
#include <string.h>
#include <assert.h>
static int use(void) {
    char big[3 << 20];
    memset(big, 1, sizeof big);
    return big[12345] + big[sizeof big - 1];
}
void *t(void *a) {
    (void)a;
    assert(use() == 2);
    return 0;
}
int main(void) {
    pthread_t h;
    pthread_create(&h, 0, t, 0);
    assert(use() == 2);
    pthread_join(h, 0);
    return 0;
}
