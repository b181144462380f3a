// A constructor that spins on a flag nobody sets: a livelock of the execution.
// expect: verdict=defect kind=livelock
volatile int forever = 1;
__attribute__((constructor)) static void init(void) {
    while (forever) {
    }
}
int main(void) { return 0; }
