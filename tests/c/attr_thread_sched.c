// Scheduling and affinity are kept per thread for their getters (they restrict nothing
// unfold explores): validated like Linux, inherited from an attribute with
// PTHREAD_EXPLICIT_SCHED; pthread_getattr_np reports the thread's stack size, detach
// state and policy; pthread_attr_getstack gives a null address (unfold places stacks);
// pthread_atfork is accepted (fork is refused: handlers never run). One thread at a
// time: one maximal configuration.
// expect: verdict=ok maximal=1
#include <pthread.h>
#include <sched.h>
#include <errno.h>
#include <assert.h>
#include <stddef.h>
void *worker(void *arg) {
    int pol; struct sched_param sp;
    assert(pthread_getschedparam(pthread_self(), &pol, &sp) == 0);
    assert(pol == SCHED_RR && sp.sched_priority == 5);
    pthread_attr_t a; size_t sz; int d;
    assert(pthread_getattr_np(pthread_self(), &a) == 0);
    assert(pthread_attr_getstacksize(&a, &sz) == 0 && sz == 1 << 20);
    assert(pthread_attr_getdetachstate(&a, &d) == 0 && d == PTHREAD_CREATE_JOINABLE);
    assert(pthread_attr_getschedpolicy(&a, &pol) == 0 && pol == SCHED_RR);
    pthread_attr_destroy(&a);
    return arg;
}
int main(void) {
    int pol; struct sched_param sp = {0};
    assert(pthread_getschedparam(pthread_self(), &pol, &sp) == 0 && pol == SCHED_OTHER && sp.sched_priority == 0);
    sp.sched_priority = 3;
    assert(pthread_setschedparam(pthread_self(), SCHED_OTHER, &sp) == EINVAL);
    assert(pthread_setschedparam(pthread_self(), 1234, &sp) == EINVAL);
    assert(pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp) == 0);
    assert(pthread_setschedprio(pthread_self(), 0) == EINVAL);
    assert(pthread_setschedprio(pthread_self(), 7) == 0);
    assert(pthread_getschedparam(pthread_self(), &pol, &sp) == 0 && pol == SCHED_FIFO && sp.sched_priority == 7);
    cpu_set_t s; CPU_ZERO(&s);
    assert(pthread_setaffinity_np(pthread_self(), sizeof s, &s) == EINVAL);
    CPU_SET(0, &s);
    assert(pthread_setaffinity_np(pthread_self(), sizeof s, &s) == 0);
    CPU_ZERO(&s);
    assert(pthread_getaffinity_np(pthread_self(), sizeof s, &s) == 0 && CPU_ISSET(0, &s) && CPU_COUNT(&s) == 1);
    pthread_attr_t at; void *addr; size_t sz;
    pthread_attr_init(&at);
    pthread_attr_setstacksize(&at, 1 << 20);
    assert(pthread_attr_getstack(&at, &addr, &sz) == 0 && addr == NULL && sz == 1 << 20);
    assert(pthread_attr_getstackaddr(&at, &addr) == 0 && addr == NULL);
    pthread_attr_setinheritsched(&at, PTHREAD_EXPLICIT_SCHED);
    pthread_attr_setschedpolicy(&at, SCHED_RR);
    sp.sched_priority = 5;
    pthread_attr_setschedparam(&at, &sp);
    assert(pthread_atfork(NULL, NULL, NULL) == 0);
    pthread_attr_t d;
    assert(pthread_getattr_default_np(&d) == 0 && pthread_attr_getstacksize(&d, &sz) == 0 && sz > 0);
    pthread_t t;
    pthread_create(&t, &at, worker, 0);
    pthread_join(t, 0);
    return 0;
}
