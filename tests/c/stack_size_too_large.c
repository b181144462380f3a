// A stack size beyond what unfold can reserve per thread is an error that names the call,
// never silently a smaller stack.
// expect: refused=pthread_attr_setstacksize
#include <pthread.h>

void *worker(void *arg) {
    return arg;
}

int main(void) {
    pthread_attr_t at;
    pthread_t t;
    pthread_attr_init(&at);
    pthread_attr_setstacksize(&at, (size_t)1 << 30);
    pthread_create(&t, &at, worker, 0);
    pthread_join(t, 0);
    return 0;
}
