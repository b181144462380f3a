// A preprocessed file in the shape of SV-COMP's: no line markers, the system declarations
// inlined, and the synchronising objects with their sizes on 32-bit x86 (a 24-byte mutex,
// a 16-byte semaphore). Each object shares a struct with a counter right after it, which
// unfold must neither read as part of the object nor overwrite when it initialises it.
// expect: verdict=ok maximal=16 maximal-rr=4
typedef unsigned int size_t;
typedef unsigned long int pthread_t;
typedef union { char __size[36]; long int __align; } pthread_attr_t;
typedef struct __pthread_internal_slist { struct __pthread_internal_slist *__next; } __pthread_slist_t;
typedef union {
  struct __pthread_mutex_s {
    int __lock; unsigned int __count; int __owner; int __kind; unsigned int __nusers;
    __extension__ union { struct { short __espins; short __elision; } __elision_data; __pthread_slist_t __list; };
  } __data;
  char __size[24];
  long int __align;
} pthread_mutex_t;
typedef union { char __size[4]; int __align; } pthread_mutexattr_t;
typedef union { char __size[16]; long int __align; } sem_t;
extern int pthread_create (pthread_t *__restrict __newthread, const pthread_attr_t *__restrict __attr, void *(*__start_routine) (void *), void *__restrict __arg) __attribute__ ((__nothrow__)) __attribute__ ((__nonnull__ (1, 3)));
extern int pthread_join (pthread_t __th, void **__thread_return);
extern int pthread_mutex_init (pthread_mutex_t *__mutex, const pthread_mutexattr_t *__mutexattr) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__nonnull__ (1)));
extern int pthread_mutex_lock (pthread_mutex_t *__mutex) __attribute__ ((__nothrow__)) __attribute__ ((__nonnull__ (1)));
extern int pthread_mutex_unlock (pthread_mutex_t *__mutex) __attribute__ ((__nothrow__)) __attribute__ ((__nonnull__ (1)));
extern int sem_init (sem_t *__sem, int __pshared, unsigned int __value) __attribute__ ((__nothrow__ , __leaf__));
extern int sem_wait (sem_t *__sem);
extern int sem_post (sem_t *__sem) __attribute__ ((__nothrow__ , __leaf__));
extern void *malloc (size_t __size) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__malloc__));
extern void __assert_fail (const char *__assertion, const char *__file, unsigned int __line, const char *__function) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "layouts.c", 3, "reach_error"); }

struct account { pthread_mutex_t lock; int balance; } acct = { { { 0, 0, 0, 0, 0, { { 0, 0 } } } }, 100 };
struct gate { sem_t sem; int opened; } *gate;

void *withdraw(void *arg) {
  pthread_mutex_lock(&acct.lock);
  acct.balance -= 10;
  pthread_mutex_unlock(&acct.lock);
  sem_wait(&gate->sem);
  gate->opened++;
  sem_post(&gate->sem);
  return 0;
}

int main() {
  pthread_t t1, t2;
  gate = malloc(sizeof(struct gate));
  gate->opened = 5;
  sem_init(&gate->sem, 0, 1);
  pthread_mutex_init(&acct.lock, 0);
  pthread_create(&t1, 0, withdraw, 0);
  pthread_create(&t2, 0, withdraw, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  if (acct.balance != 80 || gate->opened != 7) reach_error();
  return 0;
}
