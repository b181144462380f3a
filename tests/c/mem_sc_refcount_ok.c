// Two owners drop their references under a mutex; the last one frees the object,
// after unlocking. Under --memory sc the decrement that reaches zero reads every earlier
// decrement, so the free follows every owner's use: no defect.
// expect: verdict=ok flags=--memory=sc
#include <pthread.h>
#include <stdlib.h>
#include <assert.h>
struct obj {
    int refs;
    int val;
} *o;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int total;
static void put(void) {
    pthread_mutex_lock(&m);
    int last = --o->refs == 0;
    pthread_mutex_unlock(&m);
    if (last) free(o);
}
static void use(void) {
    pthread_mutex_lock(&m);
    total += o->val;
    pthread_mutex_unlock(&m);
    put();
}
void *user(void *arg) {
    (void)arg;
    use();
    return 0;
}
int main(void) {
    o = malloc(sizeof *o);
    o->refs = 2;
    o->val = 2;
    pthread_t t;
    pthread_create(&t, 0, user, 0);
    use();
    pthread_join(t, 0);
    assert(total == 4);
    return 0;
}
