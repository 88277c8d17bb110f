/*
 * start_floor: the machine's floor for starting N processes at one absolute instant.
 * Forks N processes; each sleeps with clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME) until the
 * same instant (now + lead), then reads CLOCK_REALTIME. Repeated REPS times; for each repeat
 * prints the largest lateness (wake - instant) and the spread (last wake - first wake), in ms:
 *   rep <i> max_late_ms <x> spread_ms <y>
 * Usage: start_floor N REPS [LEAD_MS]
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/wait.h>

static long long ns(const struct timespec *t) { return t->tv_sec * 1000000000LL + t->tv_nsec; }

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: start_floor N REPS [LEAD_MS]\n"); return 2; }
    int n = atoi(argv[1]), reps = atoi(argv[2]);
    long lead_ms = argc > 3 ? atol(argv[3]) : 100;
    if (n < 1 || reps < 1) { fprintf(stderr, "start_floor: N and REPS must be >= 1\n"); return 2; }
    long long *woke = mmap(NULL, sizeof(long long) * n, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (woke == MAP_FAILED) { perror("mmap"); return 1; }
    for (int r = 0; r < reps; r++) {
        struct timespec now, at;
        clock_gettime(CLOCK_REALTIME, &now);
        long long instant = ns(&now) + lead_ms * 1000000LL;
        at.tv_sec = instant / 1000000000LL;
        at.tv_nsec = instant % 1000000000LL;
        for (int i = 0; i < n; i++) {
            pid_t p = fork();
            if (p < 0) { perror("fork"); return 1; }
            if (p == 0) {
                while (clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, &at, NULL) != 0) { }
                struct timespec w;
                clock_gettime(CLOCK_REALTIME, &w);
                woke[i] = ns(&w);
                _exit(0);
            }
        }
        for (int i = 0; i < n; i++) wait(NULL);
        long long lo = woke[0], hi = woke[0];
        for (int i = 1; i < n; i++) { if (woke[i] < lo) lo = woke[i]; if (woke[i] > hi) hi = woke[i]; }
        printf("rep %d max_late_ms %.4f spread_ms %.4f\n", r, (hi - instant) / 1e6, (hi - lo) / 1e6);
    }
    return 0;
}
