// An atomic access that straddles two 8-byte words cannot be modelled exactly (atomics
// are events on one word): it is refused by name when it runs (error_kind refused),
// never run as two unrelated accesses.
// expect: refused=crosses an 8-byte word
#include <pthread.h>
#include <stdint.h>
struct __attribute__((packed)) odd {
    char pad[5];
    uint32_t v;
};
struct odd o __attribute__((aligned(8)));
void *t(void *a) {
    (void)a;
    __atomic_fetch_add(&o.v, 1, __ATOMIC_SEQ_CST);
    return 0;
}
int main(void) {
    pthread_t h;
    pthread_create(&h, 0, t, 0);
    pthread_join(h, 0);
    return 0;
}
