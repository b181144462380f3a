// A caller-provided stack (pthread_attr_setstack) cannot sit at unfold's fixed per-thread
// stack addresses: refused by name, with a hint to use pthread_attr_setstacksize.
// expect: refused=pthread_attr_setstack
#include <pthread.h>

static char stack[1 << 16];

void *worker(void *arg) {
    return arg;
}

int main(void) {
    pthread_attr_t at;
    pthread_t t;
    pthread_attr_init(&at);
    pthread_attr_setstack(&at, stack, sizeof stack);
    pthread_create(&t, &at, worker, 0);
    pthread_join(t, 0);
    return 0;
}
