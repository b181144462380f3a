/*
 * tsan.c — the thread-sanitizer interface, implemented for unfold.
 *
 * `unfold check` compiles programs with `-fsanitize=thread` but links them without the
 * sanitizer's runtime: every plain access to memory that may be shared calls
 * `__tsan_readN` / `__tsan_writeN` before it happens, and every C11 / GCC atomic
 * operation is replaced by a call to `__tsan_atomicN_<op>`. These definitions, exported
 * by the `unfold` binary, forward each call with its return address (the site of the
 * access) to the Rust side (crates/runtime/src/memory.rs):
 *   - plain accesses go to __unfold_mem_access (race detection, or a visible step in
 *     `--memory sc` mode);
 *   - an atomic operation is a visible step: __unfold_mem_atomic_pre makes it a
 *     scheduling point, the operation then runs (every program thread is a coroutine of
 *     one OS thread, so a sequentially consistent builtin is exact), and
 *     __unfold_mem_atomic_post records what it did (a failed compare-exchange is a load).
 * Memory-order arguments are ignored: every atomic is sequentially consistent.
 */
#include <stddef.h>

#define RA __builtin_return_address(0)

enum { K_LOAD = 0, K_STORE = 1, K_RMW = 2, K_FAILED_RMW = 3 };

void __unfold_mem_access(const volatile void *addr, size_t size, int write, void *ra);
void __unfold_mem_atomic_pre(const volatile void *addr, size_t size, int kind, void *ra);
void __unfold_mem_atomic_post(const volatile void *addr, size_t size, int kind, void *ra);

/* ---- lifecycle and call stacks ---------------------------------------------------- */
void __tsan_init(void) {}
void __tsan_func_entry(void *pc) { (void)pc; }
void __tsan_func_exit(void) {}
void __tsan_vptr_update(void **vptr, void *val) { (void)val; __unfold_mem_access(vptr, sizeof *vptr, 1, RA); }
void __tsan_vptr_read(void **vptr) { __unfold_mem_access(vptr, sizeof *vptr, 0, RA); }

/* ---- plain accesses ---------------------------------------------------------------- */
#define PLAIN(n)                                                                           \
    void __tsan_read##n(void *a) { __unfold_mem_access(a, n, 0, RA); }                     \
    void __tsan_write##n(void *a) { __unfold_mem_access(a, n, 1, RA); }                    \
    void __tsan_unaligned_read##n(void *a) { __unfold_mem_access(a, n, 0, RA); }           \
    void __tsan_unaligned_write##n(void *a) { __unfold_mem_access(a, n, 1, RA); }          \
    void __tsan_volatile_read##n(void *a) { __unfold_mem_access(a, n, 0, RA); }            \
    void __tsan_volatile_write##n(void *a) { __unfold_mem_access(a, n, 1, RA); }
PLAIN(1)
PLAIN(2)
PLAIN(4)
PLAIN(8)
PLAIN(16)
void __tsan_read_range(void *a, size_t n) { __unfold_mem_access(a, n, 0, RA); }
void __tsan_write_range(void *a, size_t n) { __unfold_mem_access(a, n, 1, RA); }

/* ---- atomics ----------------------------------------------------------------------- */
#define SC __ATOMIC_SEQ_CST
#define ATOMICS(n, T)                                                                      \
    T __tsan_atomic##n##_load(const volatile T *a, int mo) {                               \
        (void)mo;                                                                          \
        void *ra = RA;                                                                     \
        __unfold_mem_atomic_pre(a, sizeof(T), K_LOAD, ra);                                 \
        T r = __atomic_load_n(a, SC);                                                      \
        __unfold_mem_atomic_post(a, sizeof(T), K_LOAD, ra);                                \
        return r;                                                                          \
    }                                                                                      \
    void __tsan_atomic##n##_store(volatile T *a, T v, int mo) {                            \
        (void)mo;                                                                          \
        void *ra = RA;                                                                     \
        __unfold_mem_atomic_pre(a, sizeof(T), K_STORE, ra);                                \
        __atomic_store_n(a, v, SC);                                                        \
        __unfold_mem_atomic_post(a, sizeof(T), K_STORE, ra);                               \
    }                                                                                      \
    RMW(n, T, exchange, __atomic_exchange_n)                                               \
    RMW(n, T, fetch_add, __atomic_fetch_add)                                               \
    RMW(n, T, fetch_sub, __atomic_fetch_sub)                                               \
    RMW(n, T, fetch_and, __atomic_fetch_and)                                               \
    RMW(n, T, fetch_or, __atomic_fetch_or)                                                 \
    RMW(n, T, fetch_xor, __atomic_fetch_xor)                                               \
    RMW(n, T, fetch_nand, __atomic_fetch_nand)                                             \
    int __tsan_atomic##n##_compare_exchange_strong(volatile T *a, T *c, T v, int mo, int fmo) { \
        (void)mo;                                                                          \
        (void)fmo;                                                                         \
        void *ra = RA;                                                                     \
        __unfold_mem_atomic_pre(a, sizeof(T), K_RMW, ra);                                  \
        int ok = __atomic_compare_exchange_n(a, c, v, 0, SC, SC);                          \
        __unfold_mem_atomic_post(a, sizeof(T), ok ? K_RMW : K_FAILED_RMW, ra);             \
        return ok;                                                                         \
    }                                                                                      \
    int __tsan_atomic##n##_compare_exchange_weak(volatile T *a, T *c, T v, int mo, int fmo) { \
        (void)mo;                                                                          \
        (void)fmo;                                                                         \
        void *ra = RA;                                                                     \
        __unfold_mem_atomic_pre(a, sizeof(T), K_RMW, ra);                                  \
        int ok = __atomic_compare_exchange_n(a, c, v, 0, SC, SC);                          \
        __unfold_mem_atomic_post(a, sizeof(T), ok ? K_RMW : K_FAILED_RMW, ra);             \
        return ok;                                                                         \
    }                                                                                      \
    T __tsan_atomic##n##_compare_exchange_val(volatile T *a, T c, T v, int mo, int fmo) {  \
        (void)mo;                                                                          \
        (void)fmo;                                                                         \
        void *ra = RA;                                                                     \
        __unfold_mem_atomic_pre(a, sizeof(T), K_RMW, ra);                                  \
        int ok = __atomic_compare_exchange_n(a, &c, v, 0, SC, SC);                         \
        __unfold_mem_atomic_post(a, sizeof(T), ok ? K_RMW : K_FAILED_RMW, ra);             \
        return c;                                                                          \
    }

#define RMW(n, T, op, builtin)                                                             \
    T __tsan_atomic##n##_##op(volatile T *a, T v, int mo) {                                \
        (void)mo;                                                                          \
        void *ra = RA;                                                                     \
        __unfold_mem_atomic_pre(a, sizeof(T), K_RMW, ra);                                  \
        T r = builtin(a, v, SC);                                                           \
        __unfold_mem_atomic_post(a, sizeof(T), K_RMW, ra);                                 \
        return r;                                                                          \
    }

ATOMICS(8, unsigned char)
ATOMICS(16, unsigned short)
ATOMICS(32, unsigned int)
ATOMICS(64, unsigned long long)

/* Sequential consistency: fences order nothing more. */
void __tsan_atomic_thread_fence(int mo) { (void)mo; }
void __tsan_atomic_signal_fence(int mo) { (void)mo; }

/* Keeps this object (and so every definition above) in the link. */
void *__unfold_tsan_anchor(void) { return (void *)__tsan_init; }
