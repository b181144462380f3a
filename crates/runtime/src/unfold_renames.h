/*
 * unfold_renames.h — the plain renames of unfold's runtime headers: each function here is
 * served by the runtime entry point of the same signature (crates/runtime/src/shims.rs,
 * sync.rs, tsan.c), and the hooks of -finstrument-functions. Included at the end of
 * unfold.h (C sources, after every system header) and by unfold_i.h (preprocessed files).
 */
#ifndef UNFOLD_RENAMES_H_INCLUDED
#define UNFOLD_RENAMES_H_INCLUDED
#define pthread_self __unfold_pthread_self
#define pthread_equal __unfold_pthread_equal
#define pthread_detach __unfold_pthread_detach
#define pthread_setcancelstate __unfold_pthread_setcancelstate
#define pthread_setcanceltype __unfold_pthread_setcanceltype
#define pthread_testcancel __unfold_pthread_testcancel
#define pthread_setname_np __unfold_pthread_setname_np
#ifndef __UNFOLD_SIZE_T_32
#define pthread_getname_np __unfold_pthread_getname_np
#endif
#define pthread_attr_init __unfold_pthread_attr_init
#define pthread_attr_destroy __unfold_pthread_attr_destroy
#define pthread_attr_setdetachstate __unfold_pthread_attr_setdetachstate
#define pthread_attr_getdetachstate __unfold_pthread_attr_getdetachstate
#define pthread_attr_setstacksize __unfold_pthread_attr_setstacksize
#ifndef __UNFOLD_SIZE_T_32
#define pthread_attr_getstacksize __unfold_pthread_attr_getstacksize
#endif
#define pthread_attr_setguardsize __unfold_pthread_attr_setguardsize
#ifndef __UNFOLD_SIZE_T_32
#define pthread_attr_getguardsize __unfold_pthread_attr_getguardsize
#endif
#define pthread_attr_setscope __unfold_pthread_attr_setscope
#define pthread_attr_getscope __unfold_pthread_attr_getscope
#define pthread_attr_setschedpolicy __unfold_pthread_attr_setschedpolicy
#define pthread_attr_getschedpolicy __unfold_pthread_attr_getschedpolicy
#define pthread_attr_setinheritsched __unfold_pthread_attr_setinheritsched
#define pthread_attr_getinheritsched __unfold_pthread_attr_getinheritsched
#define pthread_attr_setschedparam __unfold_pthread_attr_setschedparam
#define pthread_attr_getschedparam __unfold_pthread_attr_getschedparam
#define pthread_getattr_np __unfold_pthread_getattr_np
#define pthread_getattr_default_np __unfold_pthread_getattr_default_np
#define pthread_setschedparam __unfold_pthread_setschedparam
#define pthread_getschedparam __unfold_pthread_getschedparam
#define pthread_setschedprio __unfold_pthread_setschedprio
#define pthread_atfork __unfold_pthread_atfork
#ifndef __UNFOLD_SIZE_T_32
#define pthread_attr_getstack __unfold_pthread_attr_getstack
#define pthread_attr_getstackaddr __unfold_pthread_attr_getstackaddr
#define pthread_setaffinity_np __unfold_pthread_setaffinity_np
#define pthread_getaffinity_np __unfold_pthread_getaffinity_np
#endif
#define pthread_key_create __unfold_pthread_key_create
#define pthread_key_delete __unfold_pthread_key_delete
#define pthread_getspecific __unfold_pthread_getspecific
#define pthread_setspecific __unfold_pthread_setspecific
#define tss_create __unfold_tss_create
#define tss_delete __unfold_tss_delete
#define tss_get __unfold_tss_get
#define tss_set __unfold_tss_set
#define pthread_mutexattr_init __unfold_pthread_mutexattr_init
#define pthread_mutexattr_destroy __unfold_pthread_mutexattr_destroy
#define pthread_mutexattr_settype __unfold_pthread_mutexattr_settype
#define pthread_mutexattr_gettype __unfold_pthread_mutexattr_gettype
#define pthread_mutexattr_setpshared __unfold_pthread_mutexattr_setpshared
#define pthread_mutexattr_setprotocol __unfold_pthread_mutexattr_setprotocol
#define pthread_mutexattr_getprotocol __unfold_pthread_mutexattr_getprotocol
#define pthread_mutexattr_getpshared __unfold_pthread_mutexattr_getpshared
#define pthread_mutexattr_setprioceiling __unfold_pthread_mutexattr_setprioceiling
#define pthread_mutexattr_getprioceiling __unfold_pthread_mutexattr_getprioceiling
#define pthread_mutexattr_setrobust __unfold_pthread_mutexattr_setrobust
#define pthread_mutexattr_getrobust __unfold_pthread_mutexattr_getrobust
#define pthread_condattr_init __unfold_pthread_condattr_init
#define pthread_condattr_setclock __unfold_pthread_condattr_setclock
#define pthread_condattr_getclock __unfold_pthread_condattr_getclock
#define pthread_condattr_setpshared __unfold_pthread_condattr_setpshared
#define pthread_condattr_getpshared __unfold_pthread_condattr_getpshared
#define pthread_rwlockattr_init __unfold_pthread_rwlockattr_init
#define pthread_rwlockattr_setkind_np __unfold_pthread_rwlockattr_setkind_np
#define pthread_rwlockattr_getkind_np __unfold_pthread_rwlockattr_getkind_np
#define pthread_rwlockattr_setpshared __unfold_pthread_rwlockattr_setpshared
#define pthread_rwlockattr_getpshared __unfold_pthread_rwlockattr_getpshared
#define pthread_barrierattr_init __unfold_pthread_barrierattr_init
#define pthread_barrierattr_setpshared __unfold_pthread_barrierattr_setpshared
#define pthread_barrierattr_getpshared __unfold_pthread_barrierattr_getpshared
#define pthread_setconcurrency __unfold_pthread_setconcurrency
#define pthread_getconcurrency __unfold_pthread_getconcurrency
#define sleep __unfold_sleep
/* libc calls whose effects unfold does not see (unfold.h, tsan.c, shims.rs): function-
 * like, so that variables of these names are left alone. */
#define rand(...) __unfold_rand(__VA_ARGS__)
#define random(...) __unfold_random(__VA_ARGS__)
#define rand_r(s) __unfold_rand_r(s)
#define srand(...) __unfold_srand(__VA_ARGS__)
#define srandom(...) __unfold_srand(__VA_ARGS__)
#define time(...) __unfold_time(__VA_ARGS__)
#define clock(...) __unfold_clock(__VA_ARGS__)
#define clock_gettime(...) __unfold_clock_gettime(__VA_ARGS__)
#define clock_nanosleep(...) __unfold_clock_nanosleep(__VA_ARGS__)
#define timespec_get(...) __unfold_timespec_get(__VA_ARGS__)
#define gettimeofday(...) __unfold_gettimeofday(__VA_ARGS__)
#define strcpy(d, s) __unfold_strcpy(d, s)
#define strcat(d, s) __unfold_strcat(d, s)
/* Object-like: a program that takes the address of one (`qsort(..., strcmp)`) gets the
 * wrapper; its declaration in <string.h>, included after this, declares the wrapper. */
#define strcmp __unfold_strcmp
#ifndef __UNFOLD_SIZE_T_32
#define strlen __unfold_strlen
#define strncmp __unfold_strncmp
#define memcmp __unfold_memcmp
#define strncpy(d, s, n) __unfold_strncpy(d, s, n)
#define strncat(d, s, n) __unfold_strncat(d, s, n)
#define memcpy(d, s, n) __unfold_memcpy(d, s, n)
#define memmove(d, s, n) __unfold_memmove(d, s, n)
#define memset(d, c, n) __unfold_memset(d, c, n)
#define snprintf(...) __unfold_snprintf(__VA_ARGS__)
#endif
#define sprintf(...) __unfold_sprintf(__VA_ARGS__)
#define usleep __unfold_usleep
#define nanosleep __unfold_nanosleep
#define atexit __unfold_atexit
#define __assert_fail __unfold_assert_fail
#define __VERIFIER_assume __unfold_VERIFIER_assume
/* Nondeterministic values: drawn by the runtime (tsan.c, nondet.rs) from the valuation of
 * the exploration; the program's own declarations name the renamed functions. */
#define __VERIFIER_nondet_bool __unfold_nondet_bool
#define __VERIFIER_nondet_char __unfold_nondet_char
#define __VERIFIER_nondet_short __unfold_nondet_short
#define __VERIFIER_nondet_int __unfold_nondet_int
#define __VERIFIER_nondet_long __unfold_nondet_long
#define __VERIFIER_nondet_longlong __unfold_nondet_longlong
#define __VERIFIER_nondet_loff_t __unfold_nondet_loff_t
#define __VERIFIER_nondet_uchar __unfold_nondet_uchar
#define __VERIFIER_nondet_ushort __unfold_nondet_ushort
#define __VERIFIER_nondet_uint __unfold_nondet_uint
#define __VERIFIER_nondet_unsigned __unfold_nondet_unsigned
#define __VERIFIER_nondet_u32 __unfold_nondet_u32
#define __VERIFIER_nondet_ulong __unfold_nondet_ulong
#define __VERIFIER_nondet_ulonglong __unfold_nondet_ulonglong
#define __VERIFIER_nondet_size_t __unfold_nondet_size_t
#define __VERIFIER_nondet_sector_t __unfold_nondet_sector_t
#define __VERIFIER_nondet_pthread_t __unfold_nondet_pthread_t
#define __VERIFIER_nondet_float __unfold_nondet_float
#define __VERIFIER_nondet_double __unfold_nondet_double
#define __VERIFIER_nondet_pointer __unfold_nondet_pointer
#define __VERIFIER_nondet_pchar __unfold_nondet_pchar
#define pthread_yield __unfold_pthread_yield
#define thrd_current __unfold_pthread_self
#define thrd_equal __unfold_pthread_equal
#define thrd_detach __unfold_thrd_detach
#define thrd_yield __unfold_thrd_yield
#define thrd_sleep __unfold_thrd_sleep

#ifdef __UNFOLD_INSTRUMENT
/* Compiled with -finstrument-functions: functions named __VERIFIER_atomic_* run inside
 * an atomic section (the runtime knows their addresses). */
void __unfold_func_enter(void *, void *);
void __unfold_func_exit(void *);
void __attribute__((no_instrument_function, visibility("hidden"))) __cyg_profile_func_enter(void *f, void *s) {
    __unfold_func_enter(f, s);
}
void __attribute__((no_instrument_function, visibility("hidden"))) __cyg_profile_func_exit(void *f, void *s) {
    (void)s;
    __unfold_func_exit(f);
}
#endif
#endif
