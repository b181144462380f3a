// A constructor that computes forever: the execution's time limit stops it (and Ctrl-C
// still works: the checker never runs it itself).
// args: --exec-timeout 1
// expect: verdict=defect kind=timeout
unsigned long sink;
__attribute__((constructor)) static void init(void) {
    unsigned long i = 1;
    while (i != 0) /* an odd multiplier and odd increment never reach 0 from 1 this soon */
        i = i * 6364136223846793005UL + 1442695040888963407UL;
    sink = i;
}
int main(void) { return 0; }
