/*
 * lockbench: lock and unlock one byte of one file in a loop for SECONDS; the peer of Lockstep's
 * lock workloads inside the lab's guests (built static into the image as /usr/local/bin/lockbench).
 *   lockbench fcntl|ofd|flock FILE SECONDS [OFFSET]
 * fcntl: F_SETLKW write lock on byte OFFSET, then F_UNLCK (on GFS2 both go to dlm_controld);
 * ofd:   the same with F_OFD_SETLKW; flock: LOCK_EX then LOCK_UN (GFS2: glocks).
 * Prints: mode <m> ops <n> seconds <s> ops_per_s <r> max_op_us <u>
 * (lock and unlock each count as one op, as ctdb's ping_pong counts locks/sec).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static int lock_op(const char *mode, int fd, long off, int lock) {
    if (strcmp(mode, "flock") == 0) {
        return flock(fd, lock ? LOCK_EX : LOCK_UN);
    }
    struct flock fl = {0};
    fl.l_type = lock ? F_WRLCK : F_UNLCK;
    fl.l_whence = SEEK_SET;
    fl.l_start = off;
    fl.l_len = 1;
    return fcntl(fd, strcmp(mode, "ofd") == 0 ? F_OFD_SETLKW : F_SETLKW, &fl);
}

int main(int argc, char **argv) {
    if (argc < 4 || (strcmp(argv[1], "fcntl") && strcmp(argv[1], "ofd") && strcmp(argv[1], "flock"))) {
        fprintf(stderr, "usage: lockbench fcntl|ofd|flock FILE SECONDS [OFFSET]\n");
        return 2;
    }
    double secs = atof(argv[3]);
    long off = argc > 4 ? atol(argv[4]) : 0;
    int fd = open(argv[2], O_RDWR | O_CREAT, 0664);
    if (fd < 0) {
        perror(argv[2]);
        return 1;
    }
    long ops = 0;
    double worst = 0, start = now(), end = start + secs, t = start;
    while (t < end) {
        for (int lock = 1; lock >= 0; lock--) {
            double t0 = now();
            if (lock_op(argv[1], fd, off, lock) != 0) {
                perror("lock");
                return 1;
            }
            t = now();
            if (t - t0 > worst) worst = t - t0;
            ops++;
        }
    }
    double took = t - start;
    printf("mode %s ops %ld seconds %.3f ops_per_s %.1f max_op_us %.0f\n", argv[1], ops, took,
           ops / took, worst * 1e6);
    return 0;
}
