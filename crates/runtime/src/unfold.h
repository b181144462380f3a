/*
 * unfold.h — force-included (`cc -include`) into every program `unfold check` compiles.
 *
 * It routes the supported pthread API, the allocator, exit/abort/assert and the SV-COMP
 * conventions to the `__unfold_*` entry points exported by the `unfold` binary
 * (crates/runtime/src/shims.rs). Everything else a program imports is inspected after
 * compilation: unsupported pthread/semaphore/condition functions remain as undefined
 * symbols and are refused by name before anything runs.
 *
 * The system headers are included first so that their declarations are seen before the
 * function-like macros below are defined.
 */
#ifndef UNFOLD_H_INCLUDED
#define UNFOLD_H_INCLUDED
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
/* Every function routed below through a function-like macro (adding the call's file and
 * line) is also given its adapter's symbol, `__unfold_pc_<name>` (crates/runtime/src/tsan.c,
 * which takes the site from the return address): a use the macro does not expand — the
 * function's address taken (`int (*lock)(pthread_mutex_t *) = pthread_mutex_lock;`), or a
 * parenthesised name (`(pthread_mutex_lock)(&m)`) — then still reaches the runtime instead
 * of the C library. Before the system headers, so that their declarations get the name. */
#pragma redefine_extname pthread_create __unfold_pc_pthread_create
#pragma redefine_extname pthread_join __unfold_pc_pthread_join
#pragma redefine_extname pthread_exit __unfold_pc_pthread_exit
#pragma redefine_extname pthread_mutex_init __unfold_pc_pthread_mutex_init
#pragma redefine_extname pthread_mutex_destroy __unfold_pc_pthread_mutex_destroy
#pragma redefine_extname pthread_mutex_lock __unfold_pc_pthread_mutex_lock
#pragma redefine_extname pthread_mutex_unlock __unfold_pc_pthread_mutex_unlock
#pragma redefine_extname pthread_mutex_trylock __unfold_pc_pthread_mutex_trylock
#pragma redefine_extname pthread_mutex_timedlock __unfold_pc_pthread_mutex_timedlock
#pragma redefine_extname pthread_mutex_clocklock __unfold_pc_pthread_mutex_clocklock
#pragma redefine_extname pthread_cond_init __unfold_pc_pthread_cond_init
#pragma redefine_extname pthread_cond_wait __unfold_pc_pthread_cond_wait
#pragma redefine_extname pthread_cond_timedwait __unfold_pc_pthread_cond_timedwait
#pragma redefine_extname pthread_cond_clockwait __unfold_pc_pthread_cond_clockwait
#pragma redefine_extname pthread_cond_signal __unfold_pc_pthread_cond_signal
#pragma redefine_extname pthread_cond_broadcast __unfold_pc_pthread_cond_broadcast
#pragma redefine_extname pthread_cond_destroy __unfold_pc_pthread_cond_destroy
#pragma redefine_extname pthread_condattr_destroy __unfold_pc_pthread_condattr_destroy
#pragma redefine_extname sem_init __unfold_pc_sem_init
#pragma redefine_extname sem_wait __unfold_pc_sem_wait
#pragma redefine_extname sem_trywait __unfold_pc_sem_trywait
#pragma redefine_extname sem_timedwait __unfold_pc_sem_timedwait
#pragma redefine_extname sem_clockwait __unfold_pc_sem_clockwait
#pragma redefine_extname sem_post __unfold_pc_sem_post
#pragma redefine_extname sem_getvalue __unfold_pc_sem_getvalue
#pragma redefine_extname sem_destroy __unfold_pc_sem_destroy
#pragma redefine_extname pthread_rwlock_init __unfold_pc_pthread_rwlock_init
#pragma redefine_extname pthread_rwlock_rdlock __unfold_pc_pthread_rwlock_rdlock
#pragma redefine_extname pthread_rwlock_wrlock __unfold_pc_pthread_rwlock_wrlock
#pragma redefine_extname pthread_rwlock_tryrdlock __unfold_pc_pthread_rwlock_tryrdlock
#pragma redefine_extname pthread_rwlock_trywrlock __unfold_pc_pthread_rwlock_trywrlock
#pragma redefine_extname pthread_rwlock_timedrdlock __unfold_pc_pthread_rwlock_timedrdlock
#pragma redefine_extname pthread_rwlock_timedwrlock __unfold_pc_pthread_rwlock_timedwrlock
#pragma redefine_extname pthread_rwlock_clockrdlock __unfold_pc_pthread_rwlock_clockrdlock
#pragma redefine_extname pthread_rwlock_clockwrlock __unfold_pc_pthread_rwlock_clockwrlock
#pragma redefine_extname pthread_rwlock_unlock __unfold_pc_pthread_rwlock_unlock
#pragma redefine_extname pthread_rwlock_destroy __unfold_pc_pthread_rwlock_destroy
#pragma redefine_extname pthread_rwlockattr_destroy __unfold_pc_pthread_rwlockattr_destroy
#pragma redefine_extname pthread_barrier_init __unfold_pc_pthread_barrier_init
#pragma redefine_extname pthread_barrier_wait __unfold_pc_pthread_barrier_wait
#pragma redefine_extname pthread_barrier_destroy __unfold_pc_pthread_barrier_destroy
#pragma redefine_extname pthread_barrierattr_destroy __unfold_pc_pthread_barrierattr_destroy
#pragma redefine_extname pthread_once __unfold_pc_pthread_once
#pragma redefine_extname pthread_spin_init __unfold_pc_pthread_spin_init
#pragma redefine_extname pthread_spin_lock __unfold_pc_pthread_spin_lock
#pragma redefine_extname pthread_spin_trylock __unfold_pc_pthread_spin_trylock
#pragma redefine_extname pthread_spin_unlock __unfold_pc_pthread_spin_unlock
#pragma redefine_extname pthread_spin_destroy __unfold_pc_pthread_spin_destroy
#pragma redefine_extname thrd_create __unfold_pc_thrd_create
#pragma redefine_extname thrd_join __unfold_pc_thrd_join
#pragma redefine_extname thrd_exit __unfold_pc_thrd_exit
#pragma redefine_extname mtx_init __unfold_pc_mtx_init
#pragma redefine_extname mtx_lock __unfold_pc_mtx_lock
#pragma redefine_extname mtx_trylock __unfold_pc_mtx_trylock
#pragma redefine_extname mtx_timedlock __unfold_pc_mtx_timedlock
#pragma redefine_extname mtx_unlock __unfold_pc_mtx_unlock
#pragma redefine_extname mtx_destroy __unfold_pc_mtx_destroy
#pragma redefine_extname cnd_init __unfold_pc_cnd_init
#pragma redefine_extname cnd_signal __unfold_pc_cnd_signal
#pragma redefine_extname cnd_broadcast __unfold_pc_cnd_broadcast
#pragma redefine_extname cnd_wait __unfold_pc_cnd_wait
#pragma redefine_extname cnd_timedwait __unfold_pc_cnd_timedwait
#pragma redefine_extname cnd_destroy __unfold_pc_cnd_destroy
#pragma redefine_extname call_once __unfold_pc_call_once
#include <pthread.h>
#include <stdlib.h>
#include <stddef.h>
#if defined(__has_include)
#if __has_include(<threads.h>)
#include <threads.h>
#endif
#endif

/* ---- threads ---------------------------------------------------------------------- */
int __unfold_pthread_create(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *,
                            const char *, int);
int __unfold_pthread_join(pthread_t, void **, const char *, int);
void __unfold_pthread_exit(void *, const char *, int) __attribute__((noreturn));
pthread_t __unfold_pthread_self(void);
int __unfold_pthread_equal(pthread_t, pthread_t);
int __unfold_pthread_detach(pthread_t);
int __unfold_pthread_setcancelstate(int, int *);
int __unfold_pthread_setcanceltype(int, int *);
void __unfold_pthread_testcancel(void);
int __unfold_pthread_setname_np(pthread_t, const char *);
int __unfold_pthread_getname_np(pthread_t, char *, size_t);
#define pthread_create(t, a, f, x) __unfold_pthread_create((t), (a), (f), (x), __FILE__, __LINE__)
#define pthread_join(t, r) __unfold_pthread_join((t), (r), __FILE__, __LINE__)
#define pthread_exit(r) __unfold_pthread_exit((r), __FILE__, __LINE__)

/* ---- thread attributes ------------------------------------------------------------ */
int __unfold_pthread_attr_init(pthread_attr_t *);
int __unfold_pthread_attr_destroy(pthread_attr_t *);
int __unfold_pthread_attr_setdetachstate(pthread_attr_t *, int);
int __unfold_pthread_attr_getdetachstate(const pthread_attr_t *, int *);
int __unfold_pthread_attr_setstacksize(pthread_attr_t *, size_t);
int __unfold_pthread_attr_getstacksize(const pthread_attr_t *, size_t *);
int __unfold_pthread_attr_setguardsize(pthread_attr_t *, size_t);
int __unfold_pthread_attr_getguardsize(const pthread_attr_t *, size_t *);
int __unfold_pthread_attr_setscope(pthread_attr_t *, int);
int __unfold_pthread_attr_getscope(const pthread_attr_t *, int *);
int __unfold_pthread_attr_setschedpolicy(pthread_attr_t *, int);
int __unfold_pthread_attr_getschedpolicy(const pthread_attr_t *, int *);
int __unfold_pthread_attr_setinheritsched(pthread_attr_t *, int);
int __unfold_pthread_attr_getinheritsched(const pthread_attr_t *, int *);
int __unfold_pthread_attr_setschedparam(pthread_attr_t *, const struct sched_param *);
int __unfold_pthread_attr_getschedparam(const pthread_attr_t *, struct sched_param *);
int __unfold_pthread_attr_getstack(const pthread_attr_t *, void **, size_t *);
int __unfold_pthread_attr_getstackaddr(const pthread_attr_t *, void **);
int __unfold_pthread_getattr_np(pthread_t, pthread_attr_t *);
int __unfold_pthread_getattr_default_np(pthread_attr_t *);

/* ---- scheduling, affinity, fork handlers (kept for the getters: they restrict nothing
 * unfold explores) ---------------------------------------------------------------------- */
int __unfold_pthread_setschedparam(pthread_t, int, const struct sched_param *);
int __unfold_pthread_getschedparam(pthread_t, int *, struct sched_param *);
int __unfold_pthread_setschedprio(pthread_t, int);
int __unfold_pthread_setaffinity_np(pthread_t, size_t, const cpu_set_t *);
int __unfold_pthread_getaffinity_np(pthread_t, size_t, cpu_set_t *);
int __unfold_pthread_atfork(void (*)(void), void (*)(void), void (*)(void));

/* ---- thread-specific data (POSIX keys, C11 tss) ----------------------------------- */
int __unfold_pthread_key_create(pthread_key_t *, void (*)(void *));
int __unfold_pthread_key_delete(pthread_key_t);
void *__unfold_pthread_getspecific(pthread_key_t);
int __unfold_pthread_setspecific(pthread_key_t, const void *);
int __unfold_tss_create(unsigned int *, void (*)(void *));
void __unfold_tss_delete(unsigned int);
void *__unfold_tss_get(unsigned int);
int __unfold_tss_set(unsigned int, void *);

/* ---- mutexes ---------------------------------------------------------------------- */
int __unfold_pthread_mutex_init(pthread_mutex_t *, const pthread_mutexattr_t *, const char *, int);
int __unfold_pthread_mutex_destroy(pthread_mutex_t *, const char *, int);
int __unfold_pthread_mutex_lock(pthread_mutex_t *, const char *, int);
int __unfold_pthread_mutex_unlock(pthread_mutex_t *, const char *, int);
int __unfold_pthread_mutex_trylock(pthread_mutex_t *, const char *, int);
int __unfold_pthread_mutexattr_init(pthread_mutexattr_t *);
int __unfold_pthread_mutexattr_destroy(pthread_mutexattr_t *);
int __unfold_pthread_mutexattr_settype(pthread_mutexattr_t *, int);
int __unfold_pthread_mutexattr_gettype(const pthread_mutexattr_t *, int *);
int __unfold_pthread_mutexattr_setpshared(pthread_mutexattr_t *, int);
int __unfold_pthread_mutexattr_setprotocol(pthread_mutexattr_t *, int);
int __unfold_pthread_mutexattr_getprotocol(const pthread_mutexattr_t *, int *);
int __unfold_pthread_mutexattr_getpshared(const pthread_mutexattr_t *, int *);
int __unfold_pthread_mutexattr_setprioceiling(pthread_mutexattr_t *, int);
int __unfold_pthread_mutexattr_getprioceiling(const pthread_mutexattr_t *, int *);
int __unfold_pthread_mutexattr_setrobust(pthread_mutexattr_t *, int);
int __unfold_pthread_mutexattr_getrobust(const pthread_mutexattr_t *, int *);
int __unfold_pthread_setconcurrency(int);
int __unfold_pthread_getconcurrency(void);
#define pthread_mutex_init(m, a) __unfold_pthread_mutex_init((m), (a), __FILE__, __LINE__)
#define pthread_mutex_destroy(m) __unfold_pthread_mutex_destroy((m), __FILE__, __LINE__)
#define pthread_mutex_lock(m) __unfold_pthread_mutex_lock((m), __FILE__, __LINE__)
#define pthread_mutex_unlock(m) __unfold_pthread_mutex_unlock((m), __FILE__, __LINE__)
int __unfold_try_pthread_mutex_trylock(pthread_mutex_t *, const char *, int);
#define pthread_mutex_trylock(m) __unfold_try_pthread_mutex_trylock((m), __FILE__, __LINE__)

/* ---- sleeping ---------------------------------------------------------------------- */
/* Every schedule is explored whatever the threads' timing, so a sleep only costs time:
 * the shims return at once, the thread's virtual time that much later (the clocks are
 * virtual: crates/runtime/src/shims.rs, "time"; declared with <time.h> below). */
/* No header more than pthread.h's (a program may name what <unistd.h> declares): the
 * renamed prototypes of <unistd.h> and <time.h> match these (useconds_t is unsigned int;
 * pthread.h declared struct timespec). */
unsigned int __unfold_sleep(unsigned int);
int __unfold_usleep(unsigned int);
int __unfold_nanosleep(const struct timespec *, struct timespec *);

/* ---- deterministic per-thread heap ------------------------------------------------ */
/* Static trampolines pass their return address (the call site) to the runtime, which
 * names allocations and frees in memory-error reports; renamed, not function-like, so
 * that `&malloc` and programs that declare malloc again still compile. */
void *__unfold_malloc_at(size_t, void *);
void *__unfold_calloc_at(size_t, size_t, void *);
void *__unfold_realloc_at(void *, size_t, void *);
void __unfold_free_at(void *, void *);
static void *__attribute__((noinline, unused, no_instrument_function)) __unfold_malloc(size_t n) {
    return __unfold_malloc_at(n, __builtin_return_address(0));
}
static void *__attribute__((noinline, unused, no_instrument_function)) __unfold_calloc(size_t n, size_t s) {
    return __unfold_calloc_at(n, s, __builtin_return_address(0));
}
static void *__attribute__((noinline, unused, no_instrument_function)) __unfold_realloc(void *p, size_t n) {
    return __unfold_realloc_at(p, n, __builtin_return_address(0));
}
static void __attribute__((noinline, unused, no_instrument_function)) __unfold_free(void *p) {
    __unfold_free_at(p, __builtin_return_address(0));
}
#define malloc __unfold_malloc
#define calloc __unfold_calloc
#define realloc __unfold_realloc
#define free __unfold_free

/* ---- process end and failures ----------------------------------------------------- */
/* exit and abort are renamed (not function-like macros) so that programs which declare
 * them again (`extern void abort(void);`, common in SV-COMP files) still compile; the
 * call site is the trampoline's return address, resolved with the debug info. */
void __unfold_exit_at(int, void *) __attribute__((noreturn));
void __unfold_abort_at(void *) __attribute__((noreturn));
void __unfold_assert_fail(const char *, const char *, unsigned int, const char *)
    __attribute__((noreturn));
void __unfold_error_at(void *) __attribute__((noreturn));
static void __attribute__((noinline, noreturn, unused, no_instrument_function)) __unfold_exit(int c) {
    __unfold_exit_at(c, __builtin_return_address(0));
}
static void __attribute__((noinline, noreturn, unused, no_instrument_function)) __unfold_abort(void) {
    __unfold_abort_at(__builtin_return_address(0));
}
#define exit __unfold_exit
/* atexit handlers run at the end of each execution (exit or main returning); _exit and
 * _Exit end the program without them (crates/runtime/src/process.rs). */
int __unfold_atexit(void (*)(void));
void __unfold__exit_at(int, void *) __attribute__((noreturn));
static void __attribute__((noinline, noreturn, unused, no_instrument_function)) __unfold__exit(int c) {
    __unfold__exit_at(c, __builtin_return_address(0));
}
#define _exit __unfold__exit
#define _Exit __unfold__exit
#define abort __unfold_abort

/* ---- SV-COMP conventions ---------------------------------------------------------- */
void __unfold_VERIFIER_assume(int);
void __unfold_atomic_begin_at(void *);
void __unfold_atomic_end_at(void *);
/* A call site is known only through the return address: resolved with the debug info. */
static void __attribute__((noinline, noreturn, unused, no_instrument_function)) __unfold_VERIFIER_error(void) {
    __unfold_error_at(__builtin_return_address(0));
}
/* A program that defines __VERIFIER_error or __VERIFIER_atomic_begin/end itself (stubs to
 * compile natively) is compiled again with __UNFOLD_OWN_VERIFIER: its definitions stay,
 * and entering them is hooked instead (crates/cli/src/compile.rs). */
#ifndef __UNFOLD_OWN_VERIFIER
#define __VERIFIER_error __unfold_VERIFIER_error
#endif
static void __attribute__((noinline, unused, no_instrument_function))
__unfold_VERIFIER_atomic_begin(void) {
    __unfold_atomic_begin_at(__builtin_return_address(0));
}
static void __attribute__((noinline, unused, no_instrument_function))
__unfold_VERIFIER_atomic_end(void) {
    __unfold_atomic_end_at(__builtin_return_address(0));
}
#ifndef __UNFOLD_OWN_VERIFIER
#define __VERIFIER_atomic_begin __unfold_VERIFIER_atomic_begin
#define __VERIFIER_atomic_end __unfold_VERIFIER_atomic_end
#endif


/* ==== synchronising objects beyond mutexes (crates/runtime/src/sync.rs, c11.rs) ======
 * Condition variables, semaphores, read-write locks, barriers, pthread_once, spinlocks,
 * pthread_mutex_timedlock, pthread_yield and C11 <threads.h> (except tss_*). Time-outs
 * are explored, not timed. Try and timed operations go through `__unfold_try_*` entry
 * points (crates/runtime/src/tsan.c), which capture the caller's state: a retry loop of
 * failed tries is a spin (crates/runtime/src/memory.rs). */
#include <semaphore.h>
#include <time.h>
/* Virtual clocks (shims.rs, "time"): every thread has its own time, moved by its sleeps,
 * frozen between its visible steps, the same in every execution. Function-like renames
 * (unfold_renames.h): a variable named `time` or `clock` keeps its name. <sys/time.h> is
 * not included: its renamed prototype of gettimeofday matches this one. */
struct timeval;
time_t __unfold_time(time_t *);
clock_t __unfold_clock(void);
int __unfold_clock_gettime(clockid_t, struct timespec *);
int __unfold_clock_nanosleep(clockid_t, int, const struct timespec *, struct timespec *);
int __unfold_timespec_get(struct timespec *, int);
int __unfold_gettimeofday(struct timeval *__restrict, void *__restrict);
#if defined(__has_include)
#if __has_include(<threads.h>)
#define __UNFOLD_HAVE_THREADS_H 1
#include <threads.h>
#endif
#endif
#undef pthread_mutex_timedlock
#undef pthread_cond_timedwait
#undef sem_timedwait
#undef pthread_rwlock_timedrdlock
#undef pthread_rwlock_timedwrlock
/* The `clock` variants (glibc 2.30): the timed ones on CLOCK_REALTIME or CLOCK_MONOTONIC
 * (another clock is EINVAL). */
#undef pthread_mutex_clocklock
#undef pthread_cond_clockwait
#undef sem_clockwait
#undef pthread_rwlock_clockrdlock
#undef pthread_rwlock_clockwrlock
int __unfold_pthread_mutex_timedlock(pthread_mutex_t *, const struct timespec *, const char *, int);
int __unfold_pthread_yield(void);
int __unfold_try_pthread_mutex_timedlock(pthread_mutex_t *, const struct timespec *, const char *, int);
#define pthread_mutex_timedlock(m, t) __unfold_try_pthread_mutex_timedlock((m), (t), __FILE__, __LINE__)
int __unfold_try_pthread_mutex_clocklock(pthread_mutex_t *, clockid_t, const struct timespec *, const char *, int);
#define pthread_mutex_clocklock(m, k, t) __unfold_try_pthread_mutex_clocklock((m), (k), (t), __FILE__, __LINE__)

int __unfold_pthread_cond_init(pthread_cond_t *, const pthread_condattr_t *, const char *, int);
int __unfold_pthread_cond_wait(pthread_cond_t *, pthread_mutex_t *, const char *, int);
int __unfold_pthread_cond_timedwait(pthread_cond_t *, pthread_mutex_t *, const struct timespec *,
                                    const char *, int);
int __unfold_pthread_cond_signal(pthread_cond_t *, const char *, int);
int __unfold_pthread_cond_broadcast(pthread_cond_t *, const char *, int);
int __unfold_pthread_cond_destroy(pthread_cond_t *, const char *, int);
#define pthread_cond_init(c, a) __unfold_pthread_cond_init((c), (a), __FILE__, __LINE__)
#define pthread_cond_wait(c, m) __unfold_pthread_cond_wait((c), (m), __FILE__, __LINE__)
int __unfold_try_pthread_cond_timedwait(pthread_cond_t *, pthread_mutex_t *, const struct timespec *,
                                        const char *, int);
#define pthread_cond_timedwait(c, m, t) __unfold_try_pthread_cond_timedwait((c), (m), (t), __FILE__, __LINE__)
int __unfold_try_pthread_cond_clockwait(pthread_cond_t *, pthread_mutex_t *, clockid_t, const struct timespec *,
                                        const char *, int);
#define pthread_cond_clockwait(c, m, k, t) __unfold_try_pthread_cond_clockwait((c), (m), (k), (t), __FILE__, __LINE__)
#define pthread_cond_signal(c) __unfold_pthread_cond_signal((c), __FILE__, __LINE__)
#define pthread_cond_broadcast(c) __unfold_pthread_cond_broadcast((c), __FILE__, __LINE__)
#define pthread_cond_destroy(c) __unfold_pthread_cond_destroy((c), __FILE__, __LINE__)
int __unfold_pthread_attr_noop(void *, int);
#define pthread_condattr_destroy(a) __unfold_pthread_attr_noop((a), 0)
/* Kept for their getters (renamed in unfold_renames.h). */
int __unfold_pthread_condattr_init(pthread_condattr_t *);
int __unfold_pthread_condattr_setclock(pthread_condattr_t *, clockid_t);
int __unfold_pthread_condattr_getclock(const pthread_condattr_t *, clockid_t *);
int __unfold_pthread_condattr_setpshared(pthread_condattr_t *, int);
int __unfold_pthread_condattr_getpshared(const pthread_condattr_t *, int *);

int __unfold_sem_init(sem_t *, int, unsigned int, const char *, int);
int __unfold_sem_wait(sem_t *, const char *, int);
int __unfold_sem_trywait(sem_t *, const char *, int);
int __unfold_sem_timedwait(sem_t *, const struct timespec *, const char *, int);
int __unfold_sem_post(sem_t *, const char *, int);
int __unfold_sem_getvalue(sem_t *, int *, const char *, int);
int __unfold_sem_destroy(sem_t *, const char *, int);
#define sem_init(s, p, v) __unfold_sem_init((s), (p), (v), __FILE__, __LINE__)
#define sem_wait(s) __unfold_sem_wait((s), __FILE__, __LINE__)
int __unfold_try_sem_trywait(sem_t *, const char *, int);
#define sem_trywait(s) __unfold_try_sem_trywait((s), __FILE__, __LINE__)
int __unfold_try_sem_timedwait(sem_t *, const struct timespec *, const char *, int);
#define sem_timedwait(s, t) __unfold_try_sem_timedwait((s), (t), __FILE__, __LINE__)
int __unfold_try_sem_clockwait(sem_t *, clockid_t, const struct timespec *, const char *, int);
#define sem_clockwait(s, k, t) __unfold_try_sem_clockwait((s), (k), (t), __FILE__, __LINE__)
#define sem_post(s) __unfold_sem_post((s), __FILE__, __LINE__)
#define sem_getvalue(s, v) __unfold_sem_getvalue((s), (v), __FILE__, __LINE__)
#define sem_destroy(s) __unfold_sem_destroy((s), __FILE__, __LINE__)

int __unfold_pthread_rwlock_init(pthread_rwlock_t *, const pthread_rwlockattr_t *, const char *, int);
int __unfold_pthread_rwlock_rdlock(pthread_rwlock_t *, const char *, int);
int __unfold_pthread_rwlock_wrlock(pthread_rwlock_t *, const char *, int);
int __unfold_pthread_rwlock_tryrdlock(pthread_rwlock_t *, const char *, int);
int __unfold_pthread_rwlock_trywrlock(pthread_rwlock_t *, const char *, int);
int __unfold_pthread_rwlock_timedrdlock(pthread_rwlock_t *, const struct timespec *, const char *, int);
int __unfold_pthread_rwlock_timedwrlock(pthread_rwlock_t *, const struct timespec *, const char *, int);
int __unfold_pthread_rwlock_unlock(pthread_rwlock_t *, const char *, int);
int __unfold_pthread_rwlock_destroy(pthread_rwlock_t *, const char *, int);
#define pthread_rwlock_init(l, a) __unfold_pthread_rwlock_init((l), (a), __FILE__, __LINE__)
#define pthread_rwlock_rdlock(l) __unfold_pthread_rwlock_rdlock((l), __FILE__, __LINE__)
#define pthread_rwlock_wrlock(l) __unfold_pthread_rwlock_wrlock((l), __FILE__, __LINE__)
int __unfold_try_pthread_rwlock_tryrdlock(pthread_rwlock_t *, const char *, int);
#define pthread_rwlock_tryrdlock(l) __unfold_try_pthread_rwlock_tryrdlock((l), __FILE__, __LINE__)
int __unfold_try_pthread_rwlock_trywrlock(pthread_rwlock_t *, const char *, int);
#define pthread_rwlock_trywrlock(l) __unfold_try_pthread_rwlock_trywrlock((l), __FILE__, __LINE__)
int __unfold_try_pthread_rwlock_timedrdlock(pthread_rwlock_t *, const struct timespec *, const char *, int);
#define pthread_rwlock_timedrdlock(l, t) __unfold_try_pthread_rwlock_timedrdlock((l), (t), __FILE__, __LINE__)
int __unfold_try_pthread_rwlock_timedwrlock(pthread_rwlock_t *, const struct timespec *, const char *, int);
#define pthread_rwlock_timedwrlock(l, t) __unfold_try_pthread_rwlock_timedwrlock((l), (t), __FILE__, __LINE__)
int __unfold_try_pthread_rwlock_clockrdlock(pthread_rwlock_t *, clockid_t, const struct timespec *, const char *,
                                            int);
#define pthread_rwlock_clockrdlock(l, k, t) __unfold_try_pthread_rwlock_clockrdlock((l), (k), (t), __FILE__, __LINE__)
int __unfold_try_pthread_rwlock_clockwrlock(pthread_rwlock_t *, clockid_t, const struct timespec *, const char *,
                                            int);
#define pthread_rwlock_clockwrlock(l, k, t) __unfold_try_pthread_rwlock_clockwrlock((l), (k), (t), __FILE__, __LINE__)
#define pthread_rwlock_unlock(l) __unfold_pthread_rwlock_unlock((l), __FILE__, __LINE__)
#define pthread_rwlock_destroy(l) __unfold_pthread_rwlock_destroy((l), __FILE__, __LINE__)
#define pthread_rwlockattr_destroy(a) __unfold_pthread_attr_noop((a), 0)
int __unfold_pthread_rwlockattr_init(pthread_rwlockattr_t *);
int __unfold_pthread_rwlockattr_setkind_np(pthread_rwlockattr_t *, int);
int __unfold_pthread_rwlockattr_getkind_np(const pthread_rwlockattr_t *, int *);
int __unfold_pthread_rwlockattr_setpshared(pthread_rwlockattr_t *, int);
int __unfold_pthread_rwlockattr_getpshared(const pthread_rwlockattr_t *, int *);

int __unfold_pthread_barrier_init(pthread_barrier_t *, const pthread_barrierattr_t *, unsigned int,
                                  const char *, int);
int __unfold_pthread_barrier_wait(pthread_barrier_t *, const char *, int);
int __unfold_pthread_barrier_destroy(pthread_barrier_t *, const char *, int);
#define pthread_barrier_init(b, a, n) __unfold_pthread_barrier_init((b), (a), (n), __FILE__, __LINE__)
#define pthread_barrier_wait(b) __unfold_pthread_barrier_wait((b), __FILE__, __LINE__)
#define pthread_barrier_destroy(b) __unfold_pthread_barrier_destroy((b), __FILE__, __LINE__)
#define pthread_barrierattr_destroy(a) __unfold_pthread_attr_noop((a), 0)
int __unfold_pthread_barrierattr_init(pthread_barrierattr_t *);
int __unfold_pthread_barrierattr_setpshared(pthread_barrierattr_t *, int);
int __unfold_pthread_barrierattr_getpshared(const pthread_barrierattr_t *, int *);

int __unfold_pthread_once(pthread_once_t *, void (*)(void), const char *, int);
#define pthread_once(o, f) __unfold_pthread_once((o), (f), __FILE__, __LINE__)

int __unfold_pthread_spin_init(pthread_spinlock_t *, int, const char *, int);
int __unfold_pthread_spin_lock(pthread_spinlock_t *, const char *, int);
int __unfold_pthread_spin_trylock(pthread_spinlock_t *, const char *, int);
int __unfold_pthread_spin_unlock(pthread_spinlock_t *, const char *, int);
int __unfold_pthread_spin_destroy(pthread_spinlock_t *, const char *, int);
#define pthread_spin_init(s, p) __unfold_pthread_spin_init((s), (p), __FILE__, __LINE__)
#define pthread_spin_lock(s) __unfold_pthread_spin_lock((s), __FILE__, __LINE__)
int __unfold_try_pthread_spin_trylock(pthread_spinlock_t *, const char *, int);
#define pthread_spin_trylock(s) __unfold_try_pthread_spin_trylock((s), __FILE__, __LINE__)
#define pthread_spin_unlock(s) __unfold_pthread_spin_unlock((s), __FILE__, __LINE__)
#define pthread_spin_destroy(s) __unfold_pthread_spin_destroy((s), __FILE__, __LINE__)

/* C11 <threads.h>: thrd_t, mtx_t, cnd_t and once_flag have the pthread layouts. */
#ifdef __UNFOLD_HAVE_THREADS_H
#undef mtx_timedlock
#undef cnd_timedwait
int __unfold_thrd_create(thrd_t *, thrd_start_t, void *, const char *, int);
int __unfold_thrd_join(thrd_t, int *, const char *, int);
void __unfold_thrd_exit(int, const char *, int) __attribute__((noreturn));
int __unfold_thrd_detach(thrd_t);
void __unfold_thrd_yield(void);
int __unfold_thrd_sleep(const struct timespec *, struct timespec *);
int __unfold_mtx_init(mtx_t *, int, const char *, int);
int __unfold_mtx_lock(mtx_t *, const char *, int);
int __unfold_mtx_trylock(mtx_t *, const char *, int);
int __unfold_mtx_timedlock(mtx_t *, const struct timespec *, const char *, int);
int __unfold_mtx_unlock(mtx_t *, const char *, int);
void __unfold_mtx_destroy(mtx_t *, const char *, int);
int __unfold_cnd_init(cnd_t *, const char *, int);
int __unfold_cnd_signal(cnd_t *, const char *, int);
int __unfold_cnd_broadcast(cnd_t *, const char *, int);
int __unfold_cnd_wait(cnd_t *, mtx_t *, const char *, int);
int __unfold_cnd_timedwait(cnd_t *, mtx_t *, const struct timespec *, const char *, int);
void __unfold_cnd_destroy(cnd_t *, const char *, int);
void __unfold_call_once(once_flag *, void (*)(void), const char *, int);
#define thrd_create(t, f, a) __unfold_thrd_create((t), (f), (a), __FILE__, __LINE__)
#define thrd_join(t, r) __unfold_thrd_join((t), (r), __FILE__, __LINE__)
#define thrd_exit(r) __unfold_thrd_exit((r), __FILE__, __LINE__)
#define mtx_init(m, k) __unfold_mtx_init((m), (k), __FILE__, __LINE__)
#define mtx_lock(m) __unfold_mtx_lock((m), __FILE__, __LINE__)
int __unfold_try_mtx_trylock(mtx_t *, const char *, int);
#define mtx_trylock(m) __unfold_try_mtx_trylock((m), __FILE__, __LINE__)
int __unfold_try_mtx_timedlock(mtx_t *, const struct timespec *, const char *, int);
#define mtx_timedlock(m, t) __unfold_try_mtx_timedlock((m), (t), __FILE__, __LINE__)
#define mtx_unlock(m) __unfold_mtx_unlock((m), __FILE__, __LINE__)
#define mtx_destroy(m) __unfold_mtx_destroy((m), __FILE__, __LINE__)
#define cnd_init(c) __unfold_cnd_init((c), __FILE__, __LINE__)
#define cnd_signal(c) __unfold_cnd_signal((c), __FILE__, __LINE__)
#define cnd_broadcast(c) __unfold_cnd_broadcast((c), __FILE__, __LINE__)
#define cnd_wait(c, m) __unfold_cnd_wait((c), (m), __FILE__, __LINE__)
int __unfold_try_cnd_timedwait(cnd_t *, mtx_t *, const struct timespec *, const char *, int);
#define cnd_timedwait(c, m, t) __unfold_try_cnd_timedwait((c), (m), (t), __FILE__, __LINE__)
#define cnd_destroy(c) __unfold_cnd_destroy((c), __FILE__, __LINE__)
#define call_once(o, f) __unfold_call_once((o), (f), __FILE__, __LINE__)
#endif
/* ==== end of synchronising objects ================================================== */

/* ---- libc calls whose effects unfold does not see ----------------------------------
 * Writes made inside libc: wrappers in crates/runtime/src/tsan.c call libc, then tell
 * the runtime that the thread changed something (a loop that calls one is not a pure
 * iteration). `rand` and `random`: one sequence per thread, the same in every execution
 * (crates/runtime/src/shims.rs). Function-like renames in unfold_renames.h: a variable
 * named `random` keeps its name. No header more than those already included: the renamed
 * prototypes of <string.h> and <stdio.h> match these. */
int __unfold_rand(void);
long __unfold_random(void);
void __unfold_srand(unsigned int);
int __unfold_rand_r(unsigned int *);
char *__unfold_strcpy(char *, const char *);
char *__unfold_strcat(char *, const char *);
char *__unfold_strncpy(char *, const char *, size_t);
char *__unfold_strncat(char *, const char *, size_t);
size_t __unfold_strlen(const char *);
int __unfold_strcmp(const char *, const char *);
int __unfold_strncmp(const char *, const char *, size_t);
int __unfold_memcmp(const void *, const void *, size_t);
void *__unfold_memcpy(void *, const void *, size_t);
void *__unfold_memmove(void *, const void *, size_t);
void *__unfold_memset(void *, int, size_t);
int __unfold_sprintf(char *, const char *, ...);
int __unfold_snprintf(char *, size_t, const char *, ...);

/* The plain renames, after every system header (their declarations keep their names),
 * and the hooks of -finstrument-functions. */
#include "unfold_renames.h"

#endif
