/*
 * start_floor: the machine's floor for starting N processes at one absolute instant.
 * Forks N processes; each sleeps with clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME) until the
 * same instant (now + lead), then reads CLOCK_REALTIME. Repeated REPS times; for each repeat
 * prints the largest lateness (wake - instant) and the spread (last wake - first wake), in ms:
 *   rep <i> max_late_ms <x> spread_ms <y>
 * With rt (the 4th argument), each process sleeps as SCHED_FIFO 1, reads the clock (its first
 * operation) and only then is back to SCHED_OTHER: the wake Lockstep's agents make where allowed
 * (RealtimeWake, lowered after the first operation).
 * Usage: start_floor N REPS [LEAD_MS [rt]]
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/wait.h>

static long long ns(const struct timespec *t) { return t->tv_sec * 1000000000LL + t->tv_nsec; }

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: start_floor N REPS [LEAD_MS]\n"); return 2; }
    int n = atoi(argv[1]), reps = atoi(argv[2]);
    long lead_ms = argc > 3 ? atol(argv[3]) : 100;
    int rt = argc > 4 && strcmp(argv[4], "rt") == 0;
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
                struct sched_param fifo = {.sched_priority = 1}, normal = {.sched_priority = 0};
                if (rt && sched_setscheduler(0, SCHED_FIFO | SCHED_RESET_ON_FORK, &fifo) != 0) {
                    perror("start_floor: sched_setscheduler(SCHED_FIFO)");
                    _exit(1);
                }
                while (clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, &at, NULL) != 0) { }
                struct timespec w;
                clock_gettime(CLOCK_REALTIME, &w);
                if (rt) sched_setscheduler(0, SCHED_OTHER, &normal);
                woke[i] = ns(&w);
                _exit(0);
            }
        }
        int failed = 0;
        for (int i = 0; i < n; i++) {
            int st;
            if (wait(&st) < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) failed = 1;
        }
        if (failed) { fprintf(stderr, "start_floor: a process failed\n"); return 1; }
        long long lo = woke[0], hi = woke[0];
        for (int i = 1; i < n; i++) { if (woke[i] < lo) lo = woke[i]; if (woke[i] > hi) hi = woke[i]; }
        printf("rep %d max_late_ms %.4f spread_ms %.4f\n", r, (hi - instant) / 1e6, (hi - lo) / 1e6);
    }
    return 0;
}
