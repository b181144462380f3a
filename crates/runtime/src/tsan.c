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
 * Schedules are sequentially consistent (every atomic runs as a seq_cst builtin); the
 * memory-order argument goes to __unfold_mem_atomic_post for happens-before only, as do
 * fences (__unfold_mem_fence): a relaxed access orders no plain accesses.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RA __builtin_return_address(0)

/* K_RMW_SAME (before an operation only): a read-modify-write that, performed now, leaves
 * the value as it is (a failed compare-exchange, an exchange of the value there): a loop
 * polling with it may run it without a step while no other thread can run (memory.rs,
 * "Polls that count"); it is an Rmw step like K_RMW otherwise. */
enum { K_LOAD = 0, K_STORE = 1, K_RMW = 2, K_FAILED_RMW = 3, K_RMW_SAME = 4 };
/* Non-zero once some thread of the execution hid polls (memory.rs): only then is the
 * prediction made (its load would fault before the operation's scheduling point on a
 * bad address, and the trace would lack the faulting step). */
extern int __unfold_hiding;
#define PREDICTING __atomic_load_n(&__unfold_hiding, __ATOMIC_RELAXED)

/*
 * The caller's local state for spin-loop detection: its callee-saved registers, read on
 * entry, and our frame address (above it: the saved frame pointer, the return address,
 * then the caller's frames). This file is compiled without optimisation (build.rs), so
 * these functions keep their own values in stack slots and use no callee-saved
 * register: the registers read here are still the caller's.
 */
struct unfold_ctx {
    unsigned long regs[10];
    void *frame;
};
#if defined(__x86_64__)
#define CAPTURE(c)                                                                         \
    struct unfold_ctx c;                                                                   \
    __asm__ volatile("mov %%rbx, %0\n\tmov %%r12, %1\n\tmov %%r13, %2\n\tmov %%r14, %3\n\tmov %%r15, %4" \
                     : "=m"(c.regs[0]), "=m"(c.regs[1]), "=m"(c.regs[2]), "=m"(c.regs[3]), "=m"(c.regs[4])); \
    c.regs[5] = c.regs[6] = c.regs[7] = c.regs[8] = c.regs[9] = 0;                         \
    c.frame = __builtin_frame_address(0)
#elif defined(__aarch64__)
#define CAPTURE(c)                                                                         \
    struct unfold_ctx c;                                                                   \
    __asm__ volatile("stp x19, x20, [%0]\n\tstp x21, x22, [%0, #16]\n\tstp x23, x24, [%0, #32]\n\t" \
                     "stp x25, x26, [%0, #48]\n\tstp x27, x28, [%0, #64]"                \
                     : : "r"(c.regs) : "memory");                                          \
    c.frame = __builtin_frame_address(0)
#else
/* No spin detection: a null frame disables it. */
#define CAPTURE(c)                                                                         \
    struct unfold_ctx c;                                                                   \
    c.frame = 0
#endif

void __unfold_mem_access(const volatile void *addr, size_t size, int write, void *ra, struct unfold_ctx *ctx);
/* Returns non-zero for a poll run without a step (memory.rs, "Polls that count"): its
 * post-hook is skipped (it would acquire, check and log what the visible poll did). */
int __unfold_mem_atomic_pre(const volatile void *addr, size_t size, int kind, void *ra, struct unfold_ctx *ctx);
void __unfold_mem_atomic_post(const volatile void *addr, size_t size, int kind, int changed, int mo, void *ra);
void __unfold_mem_fence(int mo);
void __unfold_mem_cas_expected(const void *expected, struct unfold_ctx *ctx);
/* A compare-exchange reads `*expected`, which the instrumentation does not see: where it
 * lies in the thread's stack, the spin tracker logs the read (memory.rs,
 * `Visit::same_but_dead`). Called only for an address above the caller's frame. */
void __unfold_mem_own_read(const void *addr, size_t size);

/* ---- lifecycle and call stacks ---------------------------------------------------- */
void __tsan_init(void) {}
void __tsan_func_entry(void *pc) { (void)pc; }
void __tsan_func_exit(void) {}
void __tsan_vptr_update(void **vptr, void *val) { CAPTURE(c); (void)val; __unfold_mem_access(vptr, sizeof *vptr, 1, RA, &c); }
void __tsan_vptr_read(void **vptr) { CAPTURE(c); __unfold_mem_access(vptr, sizeof *vptr, 0, RA, &c); }

/* ---- plain accesses ---------------------------------------------------------------- */
#define PLAIN(n)                                                                           \
    void __tsan_read##n(void *a) { CAPTURE(c); __unfold_mem_access(a, n, 0, RA, &c); }     \
    void __tsan_write##n(void *a) { CAPTURE(c); __unfold_mem_access(a, n, 1, RA, &c); }    \
    void __tsan_unaligned_read##n(void *a) { CAPTURE(c); __unfold_mem_access(a, n, 0, RA, &c); } \
    void __tsan_unaligned_write##n(void *a) { CAPTURE(c); __unfold_mem_access(a, n, 1, RA, &c); } \
    void __tsan_volatile_read##n(void *a) { CAPTURE(c); __unfold_mem_access(a, n, 0, RA, &c); } \
    void __tsan_volatile_write##n(void *a) { CAPTURE(c); __unfold_mem_access(a, n, 1, RA, &c); }
PLAIN(1)
PLAIN(2)
PLAIN(4)
PLAIN(8)
PLAIN(16)
void __tsan_read_range(void *a, size_t n) { CAPTURE(c); __unfold_mem_access(a, n, 0, RA, &c); }
void __tsan_write_range(void *a, size_t n) { CAPTURE(c); __unfold_mem_access(a, n, 1, RA, &c); }

/* ---- atomics ----------------------------------------------------------------------- */
#define SC __ATOMIC_SEQ_CST
#define ATOMICS(n, T)                                                                      \
    T __tsan_atomic##n##_load(const volatile T *a, int mo) {                               \
        CAPTURE(c);                                                                        \
        void *ra = RA;                                                                     \
        int hid = __unfold_mem_atomic_pre(a, sizeof(T), K_LOAD, ra, &c);                        \
        T r = __atomic_load_n(a, SC);                                                      \
        if (!hid) __unfold_mem_atomic_post(a, sizeof(T), K_LOAD, 0, mo, ra);                    \
        return r;                                                                          \
    }                                                                                      \
    void __tsan_atomic##n##_store(volatile T *a, T v, int mo) {                            \
        CAPTURE(c);                                                                        \
        void *ra = RA;                                                                     \
        int hid = __unfold_mem_atomic_pre(a, sizeof(T), K_STORE, ra, &c);                       \
        T old = __atomic_exchange_n(a, v, SC);                                             \
        if (!hid) __unfold_mem_atomic_post(a, sizeof(T), K_STORE, old != v, mo, ra);            \
    }                                                                                      \
    RMW(n, T, exchange, __atomic_exchange_n, v)                                            \
    RMW(n, T, fetch_add, __atomic_fetch_add, (T)(r + v))                                   \
    RMW(n, T, fetch_sub, __atomic_fetch_sub, (T)(r - v))                                   \
    RMW(n, T, fetch_and, __atomic_fetch_and, (T)(r & v))                                   \
    RMW(n, T, fetch_or, __atomic_fetch_or, (T)(r | v))                                     \
    RMW(n, T, fetch_xor, __atomic_fetch_xor, (T)(r ^ v))                                   \
    RMW(n, T, fetch_nand, __atomic_fetch_nand, (T)~(r & v))                                \
    int __tsan_atomic##n##_compare_exchange_strong(volatile T *a, T *c, T v, int mo, int fmo) { \
        CAPTURE(cx);                                                                       \
        void *ra = RA;                                                                     \
        int same = PREDICTING && (__atomic_load_n(a, __ATOMIC_RELAXED) != *c || *c == v);  \
        int hid = __unfold_mem_atomic_pre(a, sizeof(T), same ? K_RMW_SAME : K_RMW, ra, &cx);    \
        if (!hid && (void *)c > cx.frame) __unfold_mem_own_read(c, sizeof(T));             \
        T expected = *c;                                                                   \
        int ok = __atomic_compare_exchange_n(a, c, v, 0, SC, SC);                          \
        if (!hid) __unfold_mem_atomic_post(a, sizeof(T), ok ? K_RMW : K_FAILED_RMW, ok && expected != v, ok ? mo : fmo, ra); \
        if (!ok && *c != expected) __unfold_mem_cas_expected(c, &cx);                       \
        return ok;                                                                         \
    }                                                                                      \
    int __tsan_atomic##n##_compare_exchange_weak(volatile T *a, T *c, T v, int mo, int fmo) { \
        CAPTURE(cx);                                                                       \
        void *ra = RA;                                                                     \
        int same = PREDICTING && (__atomic_load_n(a, __ATOMIC_RELAXED) != *c || *c == v);  \
        int hid = __unfold_mem_atomic_pre(a, sizeof(T), same ? K_RMW_SAME : K_RMW, ra, &cx);    \
        if (!hid && (void *)c > cx.frame) __unfold_mem_own_read(c, sizeof(T));             \
        T expected = *c;                                                                   \
        int ok = __atomic_compare_exchange_n(a, c, v, 0, SC, SC);                          \
        if (!hid) __unfold_mem_atomic_post(a, sizeof(T), ok ? K_RMW : K_FAILED_RMW, ok && expected != v, ok ? mo : fmo, ra); \
        if (!ok && *c != expected) __unfold_mem_cas_expected(c, &cx);                       \
        return ok;                                                                         \
    }                                                                                      \
    T __tsan_atomic##n##_compare_exchange_val(volatile T *a, T c, T v, int mo, int fmo) {  \
        CAPTURE(cx);                                                                       \
        void *ra = RA;                                                                     \
        int same = PREDICTING && (__atomic_load_n(a, __ATOMIC_RELAXED) != c || c == v);    \
        int hid = __unfold_mem_atomic_pre(a, sizeof(T), same ? K_RMW_SAME : K_RMW, ra, &cx);    \
        T expected = c;                                                                    \
        int ok = __atomic_compare_exchange_n(a, &c, v, 0, SC, SC);                         \
        if (!hid) __unfold_mem_atomic_post(a, sizeof(T), ok ? K_RMW : K_FAILED_RMW, ok && expected != v, ok ? mo : fmo, ra); \
        return c;                                                                          \
    }

/* `after` is the value the operation left (from the old value r and the operand v); the
 * value there now predicts whether it will change it (exact if no other thread runs
 * first, the only case the prediction is used in). */
#define RMW(n, T, op, builtin, after)                                                      \
    T __tsan_atomic##n##_##op(volatile T *a, T v, int mo) {                                \
        CAPTURE(c);                                                                        \
        void *ra = RA;                                                                     \
        int same = 0;                                                                      \
        if (PREDICTING) {                                                                  \
            T r = __atomic_load_n(a, __ATOMIC_RELAXED);                                    \
            same = r == (T)(after);                                                        \
        }                                                                                  \
        int hid = __unfold_mem_atomic_pre(a, sizeof(T), same ? K_RMW_SAME : K_RMW, ra, &c);     \
        T r = builtin(a, v, SC);                                                           \
        if (!hid) __unfold_mem_atomic_post(a, sizeof(T), K_RMW, r != (after), mo, ra);          \
        return r;                                                                          \
    }

ATOMICS(8, unsigned char)
ATOMICS(16, unsigned short)
ATOMICS(32, unsigned int)
ATOMICS(64, unsigned long long)

/* Schedules are sequentially consistent; a fence matters to happens-before only (a
 * release fence before a relaxed store, an acquire fence after a relaxed load). A signal
 * fence orders a thread with its own signal handlers: nothing between threads. */
void __tsan_atomic_thread_fence(int mo) { __unfold_mem_fence(mo); }
void __tsan_atomic_signal_fence(int mo) { (void)mo; }

/*
 * Zero the stack below the caller's stack pointer, down to `low` (the return address
 * pushed by the call is the first byte kept), and return 1; 0 where not implemented.
 * A thread's start routine is entered right after this (crates/runtime/src/exec.rs), so
 * its frames begin on zeros instead of what earlier executions and the runtime's own
 * code left there: spin detection compares a loop's stack at its first visit with the
 * next one, and a slot the first iteration writes for the first time must hold the same
 * bytes at the first visit in every execution of the same trace (memory.rs, "spin
 * loops"). Written in assembly: no frame, nothing of its own below the stack pointer
 * (`rep stosb` uses rdi, rcx and al only).
 */
#if defined(__x86_64__)
__asm__(".text\n"
        ".globl __unfold_scrub_stack\n"
        ".type __unfold_scrub_stack,@function\n"
        "__unfold_scrub_stack:\n"
        "    mov %rsp, %rcx\n"
        "    sub %rdi, %rcx\n"
        "    jbe 1f\n"
        "    xor %eax, %eax\n"
        "    rep stosb\n"
        "1:  mov $1, %eax\n"
        "    ret\n"
        ".size __unfold_scrub_stack, .-__unfold_scrub_stack\n");
#else
int __unfold_scrub_stack(void *low) {
    (void)low;
    return 0;
}
#endif

/*
 * Call the program's code (a start routine or main) as `f(a, b, c)` with the callee-saved
 * registers zeroed, and give them back on return. Called right after
 * `__unfold_scrub_stack`: spin detection compares these registers at a loop's first visit
 * too (memory.rs, "spin loops"), and a register the program's code has not written yet
 * would otherwise hold whatever the runtime's frame that called it kept there, which
 * changes with how the compiler laid out the runtime (and with it, whether a loop waits at
 * its second visit or its third). Zeroed, it is the same in every build. The registers
 * saved here, in the scrubbed window, are the runtime frame's, which depend only on the
 * thread and its start routine and argument, as when the program's code saved them
 * itself. Written in assembly: no frame, and only these pushes below the caller's stack
 * pointer.
 */
#if defined(__x86_64__)
__asm__(".text\n"
        ".globl __unfold_enter_program\n"
        ".type __unfold_enter_program,@function\n"
        "__unfold_enter_program:\n"
        "    push %rbx\n"
        "    push %rbp\n"
        "    push %r12\n"
        "    push %r13\n"
        "    push %r14\n"
        "    push %r15\n"
        "    sub $8, %rsp\n"
        "    mov %rdi, %rax\n"
        "    mov %rsi, %rdi\n"
        "    mov %rdx, %rsi\n"
        "    mov %rcx, %rdx\n"
        "    xor %ebx, %ebx\n"
        "    xor %ebp, %ebp\n"
        "    xor %r12d, %r12d\n"
        "    xor %r13d, %r13d\n"
        "    xor %r14d, %r14d\n"
        "    xor %r15d, %r15d\n"
        "    call *%rax\n"
        "    add $8, %rsp\n"
        "    pop %r15\n"
        "    pop %r14\n"
        "    pop %r13\n"
        "    pop %r12\n"
        "    pop %rbp\n"
        "    pop %rbx\n"
        "    ret\n"
        ".size __unfold_enter_program, .-__unfold_enter_program\n");
#else
void *__unfold_enter_program(void *(*f)(void *, void *, void *), void *a, void *b, void *c) {
    return f(a, b, c);
}
#endif

/* The hash of this file's source, computed by build.rs: the runtime checks it against the
 * source it was compiled with (a stale object is a broken build, see build.rs). */
unsigned long long __unfold_tsan_source_hash(void) { return UNFOLD_TSAN_SOURCE_HASH; }

/* Keeps this object (and so every definition above) in the link. */
void *__unfold_tsan_anchor(void) { return (void *)__tsan_init; }

/*
 * ---- try and timed operations: spin checkpoints ----------------------------------------
 * A retry loop of a failed try or timed operation (`while (pthread_mutex_trylock(&m));`)
 * may make no memory access at all, so the call itself is the loop's checkpoint: unfold.h
 * routes these calls here (`__unfold_try_<api>`), which capture the caller's state like
 * the hooks above, hand it to the spin tracker (`__unfold_sync_checkpoint`: the thread
 * blocks on a spin-wait if its iteration since the last call from the same site was pure),
 * then call the runtime's shim (crates/runtime/src/sync.rs, shims.rs, c11.rs), which logs
 * a failed try as a load of its object (memory.rs, "Failed try and timed operations").
 */
void __unfold_sync_checkpoint(void *ra, struct unfold_ctx *ctx);
/* The site of a call from a preprocessed program (unfold_i.h), whose calls come without a
 * file and line: the return address, with `LINE_IS_PC` (exec.rs, `site_file_line`). Each
 * entry below also has such a form, `__unfold_pc_<api>`. */
#define LINE_IS_PC (-1)
#define AT (const char *)RA, LINE_IS_PC
#define CHECKPOINT                                                                         \
    CAPTURE(c);                                                                            \
    __unfold_sync_checkpoint(RA, &c)
#define TRY_ENTRY(api)                                                                     \
    int __unfold_##api(void *, const char *, int);                                         \
    int __unfold_try_##api(void *o, const char *file, int line) {                          \
        CHECKPOINT;                                                                        \
        return __unfold_##api(o, file, line);                                              \
    }                                                                                      \
    int __unfold_pc_##api(void *o) {                                                       \
        CHECKPOINT;                                                                        \
        return __unfold_##api(o, AT);                                                      \
    }
#define TIMED_ENTRY(api)                                                                   \
    int __unfold_##api(void *, const void *, const char *, int);                           \
    int __unfold_try_##api(void *o, const void *t, const char *file, int line) {           \
        CHECKPOINT;                                                                        \
        return __unfold_##api(o, t, file, line);                                           \
    }                                                                                      \
    int __unfold_pc_##api(void *o, const void *t) {                                        \
        CHECKPOINT;                                                                        \
        return __unfold_##api(o, t, AT);                                                   \
    }
#define TIMED_COND_ENTRY(api)                                                              \
    int __unfold_##api(void *, void *, const void *, const char *, int);                   \
    int __unfold_try_##api(void *cv, void *m, const void *t, const char *file, int line) { \
        CHECKPOINT;                                                                        \
        return __unfold_##api(cv, m, t, file, line);                                       \
    }                                                                                      \
    int __unfold_pc_##api(void *cv, void *m, const void *t) {                              \
        CHECKPOINT;                                                                        \
        return __unfold_##api(cv, m, t, AT);                                               \
    }
/* The `clock` variants (glibc 2.30): a timed one with a clock id before the time. */
#define CLOCK_ENTRY(api)                                                                   \
    int __unfold_##api(void *, int, const void *, const char *, int);                      \
    int __unfold_try_##api(void *o, int k, const void *t, const char *file, int line) {    \
        CHECKPOINT;                                                                        \
        return __unfold_##api(o, k, t, file, line);                                        \
    }                                                                                      \
    int __unfold_pc_##api(void *o, int k, const void *t) {                                 \
        CHECKPOINT;                                                                        \
        return __unfold_##api(o, k, t, AT);                                                \
    }
#define CLOCK_COND_ENTRY(api)                                                              \
    int __unfold_##api(void *, void *, int, const void *, const char *, int);              \
    int __unfold_try_##api(void *cv, void *m, int k, const void *t, const char *file,      \
                           int line) {                                                     \
        CHECKPOINT;                                                                        \
        return __unfold_##api(cv, m, k, t, file, line);                                    \
    }                                                                                      \
    int __unfold_pc_##api(void *cv, void *m, int k, const void *t) {                       \
        CHECKPOINT;                                                                        \
        return __unfold_##api(cv, m, k, t, AT);                                            \
    }
TRY_ENTRY(pthread_mutex_trylock)
TRY_ENTRY(pthread_spin_trylock)
TRY_ENTRY(mtx_trylock)
TRY_ENTRY(sem_trywait)
TRY_ENTRY(pthread_rwlock_tryrdlock)
TRY_ENTRY(pthread_rwlock_trywrlock)
TIMED_ENTRY(pthread_mutex_timedlock)
TIMED_ENTRY(mtx_timedlock)
TIMED_ENTRY(sem_timedwait)
TIMED_ENTRY(pthread_rwlock_timedrdlock)
TIMED_ENTRY(pthread_rwlock_timedwrlock)
TIMED_COND_ENTRY(pthread_cond_timedwait)
TIMED_COND_ENTRY(cnd_timedwait)
CLOCK_ENTRY(pthread_mutex_clocklock)
CLOCK_ENTRY(sem_clockwait)
CLOCK_ENTRY(pthread_rwlock_clockrdlock)
CLOCK_ENTRY(pthread_rwlock_clockwrlock)
CLOCK_COND_ENTRY(pthread_cond_clockwait)

/*
 * ---- SV-COMP's nondeterministic values ----------------------------------------------
 * unfold.h renames `__VERIFIER_nondet_<type>` to `__unfold_nondet_<type>`, defined here:
 * each passes its return address (the call's site) and the kind of its type to the
 * runtime (crates/runtime/src/nondet.rs), which returns the value of the draw in the
 * exploration's valuation, and casts it to its type. Kinds: 0 _Bool, 1
 * to 4 signed of 8 to 64 bits, 5 to 8 unsigned, 9 float, 10 double, 11 pointer (the
 * order of nondet.rs's `NondetKind`).
 */
long long __unfold_nondet(unsigned long long kind, void *ra);
#define NONDET(name, type, kind)                                                           \
    type __unfold_nondet_##name(void) { return (type)__unfold_nondet(kind, RA); }
NONDET(bool, _Bool, 0)
NONDET(char, char, 1)
NONDET(short, short, 2)
NONDET(int, int, 3)
NONDET(long, long, 4)
NONDET(longlong, long long, 4)
NONDET(loff_t, long long, 4)
NONDET(uchar, unsigned char, 5)
NONDET(ushort, unsigned short, 6)
NONDET(uint, unsigned int, 7)
NONDET(unsigned, unsigned int, 7)
NONDET(u32, unsigned int, 7)
NONDET(ulong, unsigned long, 8)
NONDET(ulonglong, unsigned long long, 8)
NONDET(size_t, unsigned long, 8)
NONDET(sector_t, unsigned long, 8)
NONDET(pthread_t, unsigned long, 8)
NONDET(float, float, 9)
NONDET(double, double, 10)
void *__unfold_nondet_pointer(void) { return (void *)(unsigned long)__unfold_nondet(11, RA); }
char *__unfold_nondet_pchar(void) { return (char *)(unsigned long)__unfold_nondet(11, RA); }

/*
 * ---- preprocessed programs: the call site from the return address -------------------
 * A `.i` file cannot go through unfold.h's function-like macros (its declarations are
 * already there), so unfold_i.h renames each routed function to `__unfold_pc_<name>`,
 * defined here: it calls the runtime's entry point with its return address in place of
 * `__FILE__` and `LINE_IS_PC` in place of `__LINE__` (exec.rs, `site_file_line`). An
 * integer or pointer argument travels in the same register whatever its C type, so the
 * adapters pass every argument as a machine word (W) and return one: a caller expecting
 * `int` or `void` reads the part it expects.
 */
typedef long W;
#define PC1(api, target)                                                                   \
    W target(W, const char *, int);                                                        \
    W __unfold_pc_##api(W a) { return target(a, AT); }
#define PC2(api, target)                                                                   \
    W target(W, W, const char *, int);                                                     \
    W __unfold_pc_##api(W a, W b) { return target(a, b, AT); }
#define PC3(api, target)                                                                   \
    W target(W, W, W, const char *, int);                                                  \
    W __unfold_pc_##api(W a, W b, W c) { return target(a, b, c, AT); }
#define PC4(api, target)                                                                   \
    W target(W, W, W, W, const char *, int);                                               \
    W __unfold_pc_##api(W a, W b, W c, W d) { return target(a, b, c, d, AT); }
/* The same API under the runtime's own name. */
#define PC1S(api) PC1(api, __unfold_##api)
#define PC2S(api) PC2(api, __unfold_##api)
#define PC3S(api) PC3(api, __unfold_##api)
#define PC4S(api) PC4(api, __unfold_##api)
PC4S(pthread_create)
PC2S(pthread_join)
PC1S(pthread_exit)
PC2S(pthread_mutex_init)
PC1S(pthread_mutex_destroy)
PC1S(pthread_mutex_lock)
PC1S(pthread_mutex_unlock)
PC2S(pthread_cond_init)
PC2S(pthread_cond_wait)
PC1S(pthread_cond_signal)
PC1S(pthread_cond_broadcast)
PC1S(pthread_cond_destroy)
PC3S(sem_init)
PC1S(sem_wait)
PC1S(sem_post)
PC2S(sem_getvalue)
PC1S(sem_destroy)
PC2S(pthread_rwlock_init)
PC1S(pthread_rwlock_rdlock)
PC1S(pthread_rwlock_wrlock)
PC1S(pthread_rwlock_unlock)
PC1S(pthread_rwlock_destroy)
PC3S(pthread_barrier_init)
PC1S(pthread_barrier_wait)
PC1S(pthread_barrier_destroy)
PC2S(pthread_once)
PC2S(pthread_spin_init)
PC1S(pthread_spin_lock)
PC1S(pthread_spin_unlock)
PC1S(pthread_spin_destroy)
PC3S(thrd_create)
PC2S(thrd_join)
PC1S(thrd_exit)
PC2S(mtx_init)
PC1S(mtx_lock)
PC1S(mtx_unlock)
PC1S(mtx_destroy)
PC1S(cnd_init)
PC1S(cnd_signal)
PC1S(cnd_broadcast)
PC2S(cnd_wait)
PC1S(cnd_destroy)
PC2S(call_once)

/* Destroying the attribute object of a condition variable, read-write lock or barrier:
 * nothing to do (the others are plain renames, unfold_renames.h). */
int __unfold_pthread_attr_noop(void *, int);
int __unfold_pc_pthread_condattr_destroy(void *a) { return __unfold_pthread_attr_noop(a, 0); }
int __unfold_pc_pthread_rwlockattr_destroy(void *a) { return __unfold_pthread_attr_noop(a, 0); }
int __unfold_pc_pthread_barrierattr_destroy(void *a) { return __unfold_pthread_attr_noop(a, 0); }

/* unfold.h's static trampolines, for preprocessed programs. */
void *__unfold_malloc_at(unsigned long, void *);
void *__unfold_calloc_at(unsigned long, unsigned long, void *);
void *__unfold_realloc_at(void *, unsigned long, void *);
void __unfold_free_at(void *, void *);
void __unfold_exit_at(int, void *) __attribute__((noreturn));
void __unfold__exit_at(int, void *) __attribute__((noreturn));
void __unfold_abort_at(void *) __attribute__((noreturn));
void __unfold_error_at(void *) __attribute__((noreturn));
void __unfold_atomic_begin_at(void *);
void __unfold_atomic_end_at(void *);
void *__unfold_pc_malloc(unsigned long n) { return __unfold_malloc_at(n, RA); }
void *__unfold_pc_calloc(unsigned long n, unsigned long s) { return __unfold_calloc_at(n, s, RA); }
void *__unfold_pc_realloc(void *p, unsigned long n) { return __unfold_realloc_at(p, n, RA); }
void __unfold_pc_free(void *p) { __unfold_free_at(p, RA); }
void __unfold_pc_exit(int c) { __unfold_exit_at(c, RA); }
void __unfold_pc__exit(int c) { __unfold__exit_at(c, RA); }
void __unfold_pc_abort(void) { __unfold_abort_at(RA); }
void __unfold_pc_VERIFIER_error(void) { __unfold_error_at(RA); }
void __unfold_pc_VERIFIER_atomic_begin(void) { __unfold_atomic_begin_at(RA); }
void __unfold_pc_VERIFIER_atomic_end(void) { __unfold_atomic_end_at(RA); }

/* A program preprocessed for a 32-bit data model: its size_t has 4 bytes. */
int __unfold_pthread_attr_getstacksize(const void *, unsigned long *);
int __unfold_pthread_attr_getguardsize(const void *, unsigned long *);
int __unfold_pc_pthread_attr_getstacksize32(const void *a, unsigned int *out) {
    unsigned long n = 0;
    int r = __unfold_pthread_attr_getstacksize(a, out ? &n : 0);
    if (r == 0 && out)
        *out = (unsigned int)n;
    return r;
}
int __unfold_pc_pthread_attr_getguardsize32(const void *a, unsigned int *out) {
    unsigned long n = 0;
    int r = __unfold_pthread_attr_getguardsize(a, out ? &n : 0);
    if (r == 0 && out)
        *out = (unsigned int)n;
    return r;
}

/*
 * libc calls that write memory inside libc (not instrumented): unfold.h renames them to
 * these wrappers, which call libc and then tell the runtime (__unfold_spin_changed): a
 * loop that calls one is never a pure iteration (it may leave on what the call wrote: a
 * counter kept in a global buffer by strcat), and the thread's next unlock is not weak.
 * (`rand_r` writes its state through the caller's pointer. `rand` and `random` are the
 * runtime's: shims.rs.)
 */
void __unfold_spin_changed(void);
/* `__unfold_<name>`: returns `name` `args`, then tells the runtime. */
#define UNFOLD_CHANGES(type, name, params, args)                                          \
    type __unfold_##name params {                                                        \
        type r = name args;                                                              \
        __unfold_spin_changed();                                                         \
        return r;                                                                        \
    }
UNFOLD_CHANGES(int, rand_r, (unsigned int *s), (s))
void __unfold_mem_copy(void *d, const void *s, size_t n, int op, int fill, void *ra);
/* The string functions make their accesses through the runtime too: a write copies the
 * bytes it writes with __unfold_mem_copy (a memcpy of what libc would write, from the
 * source or from the text formatted aside), a read reads its range with
 * __unfold_mem_read. The lengths are measured by libc first (reads the program does not
 * see: the accesses reported are the ones the call makes with those lengths).
 * __unfold_mem_copy's ops (memory.rs): */
#define UNFOLD_MEMCPY 0
#define UNFOLD_MEMMOVE 1
#define UNFOLD_MEMSET 2
/* The readers' first read carries the caller's state (memory.rs, __unfold_mem_read): a
 * loop that polls with one of them waits like one that reads the bytes itself. */
void __unfold_mem_read(const void *s, size_t n, int uninit_check, void *ra, struct unfold_ctx *ctx);
char *__unfold_strcpy(char *d, const char *s) {
    __unfold_mem_copy(d, s, strlen(s) + 1, UNFOLD_MEMCPY, 0, RA);
    __unfold_spin_changed();
    return d;
}
char *__unfold_strncpy(char *d, const char *s, size_t n) {
    size_t k = strnlen(s, n);
    /* The string (and the NUL that ends it, if within n), then NULs up to n. */
    __unfold_mem_copy(d, s, k < n ? k + 1 : k, UNFOLD_MEMCPY, 0, RA);
    if (k + 1 < n)
        __unfold_mem_copy(d + k + 1, 0, n - k - 1, UNFOLD_MEMSET, 0, RA);
    __unfold_spin_changed();
    return d;
}
char *__unfold_strcat(char *d, const char *s) {
    size_t dl = strlen(d);
    __unfold_mem_read(d, dl + 1, 1, RA, 0);
    __unfold_mem_copy(d + dl, s, strlen(s) + 1, UNFOLD_MEMCPY, 0, RA);
    __unfold_spin_changed();
    return d;
}
char *__unfold_strncat(char *d, const char *s, size_t n) {
    size_t dl = strlen(d), k = strnlen(s, n);
    __unfold_mem_read(d, dl + 1, 1, RA, 0);
    __unfold_mem_copy(d + dl, s, k, UNFOLD_MEMCPY, 0, RA);
    __unfold_mem_copy(d + dl + k, "", 1, UNFOLD_MEMCPY, 0, RA);
    __unfold_spin_changed();
    return d;
}
size_t __unfold_strlen(const char *s) {
    CAPTURE(c);
    size_t n = strlen(s);
    __unfold_mem_read(s, n + 1, 1, RA, &c);
    return n;
}
/* The bytes a comparison reads: up to the first difference or the end of a string. */
static size_t unfold_compared(const char *a, const char *b, size_t n) {
    size_t i = 0;
    while (i < n && a[i] == b[i] && a[i])
        i++;
    return i < n ? i + 1 : n;
}
int __unfold_strcmp(const char *a, const char *b) {
    CAPTURE(c);
    size_t k = unfold_compared(a, b, (size_t)-1);
    __unfold_mem_read(a, k, 1, RA, &c);
    __unfold_mem_read(b, k, 1, RA, 0);
    return strcmp(a, b);
}
int __unfold_strncmp(const char *a, const char *b, size_t n) {
    CAPTURE(c);
    size_t k = unfold_compared(a, b, n);
    __unfold_mem_read(a, k, 1, RA, &c);
    __unfold_mem_read(b, k, 1, RA, 0);
    return strncmp(a, b, n);
}
int __unfold_memcmp(const void *a, const void *b, size_t n) {
    CAPTURE(c);
    const unsigned char *x = a, *y = b;
    size_t k = 0;
    while (k < n && x[k] == y[k])
        k++;
    k = k < n ? k + 1 : n;
    __unfold_mem_read(a, k, 0, RA, &c);
    __unfold_mem_read(b, k, 0, RA, 0);
    return memcmp(a, b, n);
}
/* memcpy, memmove and memset make their accesses through the runtime, as the program's
 * own plain accesses (memory.rs, __unfold_mem_copy), then end the iteration as above. */
void *__unfold_memcpy(void *d, const void *s, size_t n) {
    __unfold_mem_copy(d, s, n, UNFOLD_MEMCPY, 0, RA);
    __unfold_spin_changed();
    return d;
}
void *__unfold_memmove(void *d, const void *s, size_t n) {
    __unfold_mem_copy(d, s, n, UNFOLD_MEMMOVE, 0, RA);
    __unfold_spin_changed();
    return d;
}
void *__unfold_memset(void *d, int c, size_t n) {
    __unfold_mem_copy(d, 0, n, UNFOLD_MEMSET, c, RA);
    __unfold_spin_changed();
    return d;
}
/* The variadic two, through their v- forms: the text is formatted aside on the thread's
 * stack, then copied into the program's buffer as the bytes libc would write there
 * (snprintf: at most n, the last a NUL). The copy may be a scheduling point, so the text
 * is not kept in libc's heap: a checkpoint taken there restores the program's stacks,
 * not libc's heap. A text longer than UNFOLD_FORMAT_ASIDE is reported as read and
 * written in place, then formatted there after the last step of the copy. */
#define UNFOLD_FORMAT_ASIDE 4096
static int unfold_vformat(char *d, size_t n, int bounded, void *ra, const char *f, va_list ap) {
    va_list again;
    va_copy(again, ap);
    int r = vsnprintf(0, 0, f, ap);
    size_t len = r < 0 ? 0 : (size_t)r + 1;
    if (bounded && len > n)
        len = n;
    if (len > 0 && len <= UNFOLD_FORMAT_ASIDE) {
        char text[len];
        vsnprintf(text, len, f, again);
        __unfold_mem_copy(d, text, len, UNFOLD_MEMCPY, 0, ra);
    } else if (len > 0) {
        __unfold_mem_copy(d, d, len, UNFOLD_MEMMOVE, 0, ra);
        vsnprintf(d, len, f, again);
    }
    va_end(again);
    __unfold_spin_changed();
    return r;
}
int __unfold_sprintf(char *s, const char *f, ...) {
    va_list ap;
    va_start(ap, f);
    int r = unfold_vformat(s, 0, 0, RA, f, ap);
    va_end(ap);
    return r;
}
int __unfold_snprintf(char *s, size_t n, const char *f, ...) {
    va_list ap;
    va_start(ap, f);
    int r = unfold_vformat(s, n, 1, RA, f, ap);
    va_end(ap);
    return r;
}

/* gcc's compound assignment to an `_Atomic` floating-point object (a compare-exchange
 * loop, instrumented as such) raises the loop's floating-point exceptions through
 * libatomic's helper, which the program is not linked with: served here. */
int feraiseexcept(int);
void __atomic_feraiseexcept(int e) { feraiseexcept(e); }
