/*
 * lock_files: seed 1's program in C, the peer of Lockstep's lock-files workload.
 * Forks P processes, which wait at a barrier; then each creates F files DIR/test-<p>-<i>,
 * opens each with O_SYNC|O_RDWR|O_CREAT, takes an exclusive lock (fcntl F_SETLKW or
 * flock LOCK_EX) and keeps it open. Files are created inside the timed part. Prints
 *   locks <n> seconds <s> locks_per_s <r>
 * where seconds runs from the first process's first open to the last process's last lock.
 * The files are removed afterwards. Usage: lock_files DIR P F fcntl|flock
 * With LOCK_FILES_THREADS=N in the environment each process first starts N threads that only
 * wait, as a JVM's threads do: a process of several threads shares its descriptor table, and
 * the kernel then takes a reference on every descriptor lookup and locks the table on each open
 * (a single-threaded process skips both).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>

static void *idle(void *arg) {
    (void) arg;
    for (;;) pause();
    return NULL;
}

static long long now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    return t.tv_sec * 1000000000LL + t.tv_nsec;
}

int main(int argc, char **argv) {
    if (argc != 5) { fprintf(stderr, "usage: lock_files DIR P F fcntl|flock\n"); return 2; }
    const char *dir = argv[1];
    int procs = atoi(argv[2]), files = atoi(argv[3]);
    int use_flock = strcmp(argv[4], "flock") == 0;
    if (procs < 1 || files < 1 || (!use_flock && strcmp(argv[4], "fcntl") != 0)) {
        fprintf(stderr, "lock_files: bad arguments\n"); return 2;
    }
    struct rlimit rl;
    getrlimit(RLIMIT_NOFILE, &rl);
    if (rl.rlim_cur < (rlim_t) files + 64) {
        rl.rlim_cur = (rlim_t) files + 64 <= rl.rlim_max ? (rlim_t) files + 64 : rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
    const char *t = getenv("LOCK_FILES_THREADS");
    int threads = t ? atoi(t) : 0;
    if (mkdir(dir, 0755) != 0 && errno != EEXIST) { perror(dir); return 1; }
    long long *times = mmap(NULL, sizeof(long long) * 2 * procs, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    int go[2], done[2], hold[2];
    if (pipe(go) || pipe(done) || pipe(hold)) { perror("pipe"); return 1; }
    for (int p = 0; p < procs; p++) {
        pid_t pid = fork();
        if (pid < 0) { perror("fork"); return 1; }
        if (pid == 0) {
            close(go[1]); close(done[0]); close(hold[1]);
            for (int k = 0; k < threads; k++) {
                pthread_t th;
                if (pthread_create(&th, NULL, idle, NULL) != 0) { perror("pthread_create"); _exit(1); }
            }
            char c, path[4096];
            if (read(go[0], &c, 1) < 0) _exit(1);
            times[2 * p] = now_ns();
            for (int i = 0; i < files; i++) {
                snprintf(path, sizeof path, "%s/test-%d-%d", dir, p, i);
                int fd = open(path, O_SYNC | O_RDWR | O_CREAT, 0644);
                if (fd < 0) { perror(path); _exit(1); }
                int rc;
                if (use_flock) {
                    rc = flock(fd, LOCK_EX);
                } else {
                    struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = 0 };
                    rc = fcntl(fd, F_SETLKW, &fl);
                }
                if (rc != 0) { perror("lock"); _exit(1); }
            }
            times[2 * p + 1] = now_ns();
            if (write(done[1], "x", 1) != 1) _exit(1);
            while (read(hold[0], &c, 1) > 0) { }   /* keep files open and locked until released */
            _exit(0);
        }
    }
    close(go[0]); close(done[1]); close(hold[0]);
    close(go[1]);                                  /* EOF releases every process at once */
    char c;
    int finished = 0;
    while (finished < procs && read(done[0], &c, 1) == 1) finished++;
    close(hold[1]);
    int failed = finished < procs;
    for (int p = 0; p < procs; p++) { int st; wait(&st); if (!WIFEXITED(st) || WEXITSTATUS(st)) failed = 1; }
    long long first = times[0], end = times[1];
    for (int p = 1; p < procs; p++) {
        if (times[2 * p] < first) first = times[2 * p];
        if (times[2 * p + 1] > end) end = times[2 * p + 1];
    }
    char path[4096];
    for (int p = 0; p < procs; p++)
        for (int i = 0; i < files; i++) { snprintf(path, sizeof path, "%s/test-%d-%d", dir, p, i); unlink(path); }
    rmdir(dir);
    if (failed) { fprintf(stderr, "lock_files: a process failed\n"); return 1; }
    double s = (end - first) / 1e9;
    printf("locks %lld seconds %.6f locks_per_s %.1f\n", (long long) procs * files, s, procs * files / s);
    return 0;
}
