package lockstep.agent.worker;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.concurrent.locks.LockSupport;
import lockstep.agent.fs.OpenFileLimit;
import lockstep.agent.fs.Posix;
import lockstep.agent.fs.PosixException;
import lockstep.agent.fs.WallClockWait;
import lockstep.agent.fs.WorkloadErrors;
import lockstep.agent.v1.WorkloadError;
import lockstep.agent.v1.WorkloadResult;
import lockstep.agent.v1.WorkloadSpec;
import lockstep.common.WallClock;
import lockstep.common.WorkloadKind;
import lockstep.worker.v1.WorkerCommand;
import lockstep.worker.v1.WorkerEvent;
import lockstep.worker.v1.WorkerOutcome;
import lockstep.worker.v1.WorkerTask;

/**
 * A worker process started by the agent. Talks length-delimited protobuf on stdin/stdout: task ->
 * ready, start -> outcome, release -> exit; its count of operations while it runs is in a mapped
 * {@link ProgressCounter} the agent reads. If stdin closes (the agent died) it exits, and the
 * kernel drops its locks.
 */
public final class WorkerMain {
  private final OutputStream out;

  private WorkerMain(OutputStream out) {
    this.out = out;
  }

  public static void main(String[] args) throws IOException {
    InputStream in = new BufferedInputStream(System.in);
    WorkerMain worker = new WorkerMain(new BufferedOutputStream(System.out));
    System.exit(worker.serve(in));
  }

  private int serve(InputStream in) throws IOException {
    // What every workload needs, loaded before the task is read: a spare worker (started before a
    // step needs it) has it done by the time its task comes. On a one-CPU emulated guest the
    // native calls' stubs alone took ~16 s of a worker's start.
    Posix posix = Posix.get();
    ProgressCounter.warmUp();
    WorkerTask.getDefaultInstance();
    send(WorkerEvent.newBuilder().setLoadedPid(posix.getpid()).build());
    WorkerCommand first = WorkerCommand.parseDelimitedFrom(in);
    if (first == null || !first.hasTask()) {
      return 3;
    }
    WorkerTask task = first.getTask();
    if (!posix.raiseOpenFileLimit(OpenFileLimit.needed(filesNeeded(task)))) {
      PosixException shortage =
          OpenFileLimit.shortage(filesNeeded(task), task.getRoot(), posix.openFileLimits());
      send(
          failure(
              WorkloadErrors.of(
                  shortage != null
                      ? shortage
                      : new PosixException(
                          "setrlimit(RLIMIT_NOFILE)",
                          task.getRoot(),
                          24,
                          "EMFILE",
                          "could not raise the soft limit"),
                  Path.of(task.getRoot()),
                  "")));
      return 0;
    }
    posix.growDescriptorTable(OpenFileLimit.needed(filesNeeded(task)));
    WorkerLoop loop;
    try {
      loop = loopFor(task);
      loop.warmUp();
      // The wait for the instant, once, before ready: its native call is linked now, not
      // in the last stretch before the instant.
      WallClockWait.until(WallClock.nowNanos() + 1_000_000L, () -> false);
      WallClockWait.firstOpDone();
      // The warm-up leaves the young generation part full: without this a young collection fell
      // inside the measured part of every worker (lock-files 10 x 1000 on tmpfs: ten pauses of
      // 4-12 ms in an 80 ms step). Collected now, the run starts on an empty eden.
      System.gc();
      if (!task.getProgressFile().isEmpty()) {
        loop.countInto(ProgressCounter.map(Path.of(task.getProgressFile())));
      }
    } catch (PosixException e) {
      send(failure(WorkloadErrors.of(e, Path.of(task.getRoot()), "while setting up")));
      return 0;
    } catch (IOException e) {
      send(
          failure(
              WorkloadError.newBuilder()
                  .setOperation("map progress counter")
                  .setMessage(
                      "worker process "
                          + posix.getpid()
                          + " cannot map "
                          + task.getProgressFile()
                          + ": "
                          + e.getMessage())
                  .build()));
      return 0;
    }
    // Everything between the start command and the loop's wait is made and started before ready:
    // on a one-CPU emulated guest a cold worker took 300-400 ms from reading the command to
    // waiting (a thread, lambdas, an executor's first schedule), which ate the start lead.
    StartSignal start = new StartSignal(Thread.currentThread());
    Thread stdin =
        new Thread(
            () -> {
              try {
                WorkerCommand next = WorkerCommand.parseDelimitedFrom(in);
                if (next != null
                    && next.getCommandCase() == WorkerCommand.CommandCase.START_AT_UNIX_NANOS) {
                  start.arrive(next.getStartAtUnixNanos());
                  // Anything on stdin now (release, or EOF because the agent died) ends the
                  // worker; exiting closes every file, which drops the locks.
                  WorkerCommand.parseDelimitedFrom(in);
                }
              } catch (IOException ignored) {
                // EOF or broken pipe: same as release
              }
              start.cancel();
              loop.stop();
              System.exit(0);
            },
            "stdin");
    // the outcome's classes, loaded now
    WorkerOutcome.newBuilder().setResult(WorkloadResult.newBuilder().setOps(0)).build();
    start.rehearse();
    stdin.start();
    send(WorkerEvent.newBuilder().setReadyPid(posix.getpid()).build());

    long startAt = start.await();
    if (startAt == 0) {
      return 0; // released (or the agent gone) before the start
    }
    WorkloadResult result;
    try {
      result = loop.run(startAt);
    } catch (RuntimeException e) {
      // Without an outcome the agent would wait for this worker until the run's timeout.
      loop.stop();
      result =
          WorkloadResult.newBuilder()
              .setError(
                  WorkloadError.newBuilder()
                      .setOperation("worker")
                      .setMessage("worker process " + posix.getpid() + " failed: " + e))
              .build();
    }
    WorkerOutcome outcome =
        WorkerOutcome.newBuilder()
            .setResult(result)
            .setCommandReadUnixNanos(start.readAtUnixNanos())
            .setWaitingUnixNanos(WallClockWait.entered(startAt))
            .build();
    send(WorkerEvent.newBuilder().setOutcome(outcome).build());
    try {
      stdin.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return 0;
  }

  /** The start command handed from the stdin thread to the main thread. */
  private static final class StartSignal {
    private final Thread waiter;
    private volatile long at;
    private volatile long readAt;
    private volatile boolean ended;

    StartSignal(Thread waiter) {
      this.waiter = waiter;
    }

    void arrive(long instant) {
      readAt = WallClock.nowNanos();
      at = instant;
      LockSupport.unpark(waiter);
    }

    void cancel() {
      ended = true;
      LockSupport.unpark(waiter);
    }

    long readAtUnixNanos() {
      return readAt;
    }

    /** A park that returns at once: the wait's own path, run before it matters. */
    void rehearse() {
      LockSupport.unpark(waiter);
      LockSupport.park(this);
    }

    /** The start instant, or 0 if stdin ended first. */
    long await() {
      while (at == 0 && !ended) {
        LockSupport.park(this);
      }
      return at;
    }
  }

  static long filesNeeded(WorkerTask task) {
    return WorkloadKind.of(task.getWorkload()).openFilesPerWorker(task.getWorkload());
  }

  private static WorkerLoop loopFor(WorkerTask task) {
    Path root = Path.of(task.getRoot());
    WorkloadSpec spec = task.getWorkload();
    boolean instrumented = !spec.getInstrumentationOff();
    return switch (spec.getKindCase()) {
      case LOCK_FILES ->
          new LockFilesLoop(
              Path.of(task.getDir()), task.getIndex(), spec.getLockFiles(), root, instrumented);
      case PING_PONG ->
          new PingPongLoop(
              Path.of(task.getFile()),
              spec.getPingPong(),
              task.getSlots(),
              task.getParticipants(),
              root,
              instrumented);
      case HOT_LOCK ->
          new HotLockLoop(Path.of(task.getFile()), spec.getHotLock(), root, instrumented);
      default ->
          throw new IllegalArgumentException(
              "worker task for " + spec.getKindCase() + ", which does not run in worker processes");
    };
  }

  private static WorkerEvent failure(WorkloadError error) {
    return WorkerEvent.newBuilder()
        .setOutcome(
            WorkerOutcome.newBuilder().setResult(WorkloadResult.newBuilder().setError(error)))
        .build();
  }

  private synchronized void send(WorkerEvent event) throws IOException {
    event.writeDelimitedTo(out);
    out.flush();
  }
}
