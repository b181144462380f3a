// A bank with an atomicity violation: withdraw() checks the balance and debits it in
// two separate critical sections. Two concurrent withdrawals can both pass the check,
// and the balance goes negative — but only under one rare interleaving.
//
//   unfold check examples/bank.c
#include <assert.h>
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int balance = 100;

static int read_balance(void) {
    pthread_mutex_lock(&lock);
    int b = balance;
    pthread_mutex_unlock(&lock);
    return b;
}

static void withdraw(int amount) {
    if (read_balance() >= amount) {
        pthread_mutex_lock(&lock);
        balance -= amount;
        pthread_mutex_unlock(&lock);
    }
}

static void *customer(void *arg) {
    withdraw(*(int *)arg);
    return NULL;
}

int main(void) {
    pthread_t a, b;
    int amount_a = 70, amount_b = 60;
    pthread_create(&a, NULL, customer, &amount_a);
    pthread_create(&b, NULL, customer, &amount_b);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    assert(balance >= 0);
    printf("balance: %d\n", balance);
    return 0;
}
