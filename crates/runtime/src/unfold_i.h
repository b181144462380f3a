/*
 * unfold_i.h — force-included into a preprocessed program (a `.i` file, as SV-COMP ships
 * them), which `unfold check` compiles as C again so that these renames apply.
 *
 * Such a file already holds the system headers' declarations (with its own type
 * definitions, possibly of another data model), so this header includes and declares
 * nothing: it only renames. Each function unfold.h routes through a function-like macro
 * (adding the call's file and line) goes here to an adapter of the same signature,
 * `__unfold_pc_<name>` (crates/runtime/src/tsan.c), which passes its return address as
 * the call's site instead; the program's own declaration of the function declares the
 * adapter. Plain renames are unfold.h's (unfold_renames.h). Checked against unfold.h by the runtime's tests:
 * every function unfold.h routes is routed here too.
 */
#ifndef UNFOLD_I_H_INCLUDED
#define UNFOLD_I_H_INCLUDED

/* ---- routed with the call site (adapters in tsan.c) ------------------------------- */
#define pthread_create __unfold_pc_pthread_create
#define pthread_join __unfold_pc_pthread_join
#define pthread_exit __unfold_pc_pthread_exit
#define pthread_mutex_init __unfold_pc_pthread_mutex_init
#define pthread_mutex_destroy __unfold_pc_pthread_mutex_destroy
#define pthread_mutex_lock __unfold_pc_pthread_mutex_lock
#define pthread_mutex_unlock __unfold_pc_pthread_mutex_unlock
#define pthread_mutex_trylock __unfold_pc_pthread_mutex_trylock
#define pthread_mutex_timedlock __unfold_pc_pthread_mutex_timedlock
#define pthread_mutex_clocklock __unfold_pc_pthread_mutex_clocklock
#define pthread_cond_init __unfold_pc_pthread_cond_init
#define pthread_cond_wait __unfold_pc_pthread_cond_wait
#define pthread_cond_timedwait __unfold_pc_pthread_cond_timedwait
#define pthread_cond_clockwait __unfold_pc_pthread_cond_clockwait
#define pthread_cond_signal __unfold_pc_pthread_cond_signal
#define pthread_cond_broadcast __unfold_pc_pthread_cond_broadcast
#define pthread_cond_destroy __unfold_pc_pthread_cond_destroy
#define sem_init __unfold_pc_sem_init
#define sem_wait __unfold_pc_sem_wait
#define sem_trywait __unfold_pc_sem_trywait
#define sem_timedwait __unfold_pc_sem_timedwait
#define sem_clockwait __unfold_pc_sem_clockwait
#define sem_post __unfold_pc_sem_post
#define sem_getvalue __unfold_pc_sem_getvalue
#define sem_destroy __unfold_pc_sem_destroy
#define pthread_rwlock_init __unfold_pc_pthread_rwlock_init
#define pthread_rwlock_rdlock __unfold_pc_pthread_rwlock_rdlock
#define pthread_rwlock_wrlock __unfold_pc_pthread_rwlock_wrlock
#define pthread_rwlock_tryrdlock __unfold_pc_pthread_rwlock_tryrdlock
#define pthread_rwlock_trywrlock __unfold_pc_pthread_rwlock_trywrlock
#define pthread_rwlock_timedrdlock __unfold_pc_pthread_rwlock_timedrdlock
#define pthread_rwlock_timedwrlock __unfold_pc_pthread_rwlock_timedwrlock
#define pthread_rwlock_clockrdlock __unfold_pc_pthread_rwlock_clockrdlock
#define pthread_rwlock_clockwrlock __unfold_pc_pthread_rwlock_clockwrlock
#define pthread_rwlock_unlock __unfold_pc_pthread_rwlock_unlock
#define pthread_rwlock_destroy __unfold_pc_pthread_rwlock_destroy
#define pthread_barrier_init __unfold_pc_pthread_barrier_init
#define pthread_barrier_wait __unfold_pc_pthread_barrier_wait
#define pthread_barrier_destroy __unfold_pc_pthread_barrier_destroy
#define pthread_once __unfold_pc_pthread_once
#define pthread_spin_init __unfold_pc_pthread_spin_init
#define pthread_spin_lock __unfold_pc_pthread_spin_lock
#define pthread_spin_trylock __unfold_pc_pthread_spin_trylock
#define pthread_spin_unlock __unfold_pc_pthread_spin_unlock
#define pthread_spin_destroy __unfold_pc_pthread_spin_destroy
#define thrd_create __unfold_pc_thrd_create
#define thrd_join __unfold_pc_thrd_join
#define thrd_exit __unfold_pc_thrd_exit
#define mtx_init __unfold_pc_mtx_init
#define mtx_lock __unfold_pc_mtx_lock
#define mtx_trylock __unfold_pc_mtx_trylock
#define mtx_timedlock __unfold_pc_mtx_timedlock
#define mtx_unlock __unfold_pc_mtx_unlock
#define mtx_destroy __unfold_pc_mtx_destroy
#define cnd_init __unfold_pc_cnd_init
#define cnd_signal __unfold_pc_cnd_signal
#define cnd_broadcast __unfold_pc_cnd_broadcast
#define cnd_wait __unfold_pc_cnd_wait
#define cnd_timedwait __unfold_pc_cnd_timedwait
#define cnd_destroy __unfold_pc_cnd_destroy
#define call_once __unfold_pc_call_once
#define pthread_condattr_destroy __unfold_pc_pthread_condattr_destroy
#define pthread_rwlockattr_destroy __unfold_pc_pthread_rwlockattr_destroy
#define pthread_barrierattr_destroy __unfold_pc_pthread_barrierattr_destroy

/* unfold.h's static trampolines (the allocator, exit, abort and the SV-COMP error and
 * atomic sections): adapters too. The compiler routes a declared-only reach_error to
 * __unfold_VERIFIER_error (crates/cli/src/compile.rs), hence the second names. */
#define malloc __unfold_pc_malloc
#define calloc __unfold_pc_calloc
#define realloc __unfold_pc_realloc
#define free __unfold_pc_free
#define exit __unfold_pc_exit
#define _exit __unfold_pc__exit
#define _Exit __unfold_pc__exit
#define abort __unfold_pc_abort
#define __unfold_VERIFIER_error __unfold_pc_VERIFIER_error
#define __unfold_VERIFIER_atomic_begin __unfold_pc_VERIFIER_atomic_begin
#define __unfold_VERIFIER_atomic_end __unfold_pc_VERIFIER_atomic_end
#ifndef __UNFOLD_OWN_VERIFIER
#define __VERIFIER_error __unfold_pc_VERIFIER_error
#define __VERIFIER_atomic_begin __unfold_pc_VERIFIER_atomic_begin
#define __VERIFIER_atomic_end __unfold_pc_VERIFIER_atomic_end
#endif

/* A file preprocessed for a 32-bit data model has a 4-byte size_t: the attribute getters
 * that store one go through adapters that store 4 bytes. */
#ifdef __UNFOLD_SIZE_T_32
#define pthread_attr_getstacksize __unfold_pc_pthread_attr_getstacksize32
#define pthread_attr_getguardsize __unfold_pc_pthread_attr_getguardsize32
#endif

/* ---- plain renames and hooks (shared with unfold.h) -------------------------------- */
#include "unfold_renames.h"


#endif
