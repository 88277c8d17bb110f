package lockstep.agent.worker;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import lockstep.agent.fs.OpenFileLimit;
import lockstep.agent.fs.Posix;
import lockstep.agent.fs.PosixException;
import lockstep.agent.fs.WallClockWait;
import lockstep.agent.fs.WorkloadErrors;
import lockstep.agent.v1.ProgressSample;
import lockstep.agent.v1.WorkloadError;
import lockstep.agent.v1.WorkloadSpec;
import lockstep.common.DaemonThreads;
import lockstep.common.WallClock;
import lockstep.common.WorkloadKind;
import lockstep.worker.v1.WorkerCommand;
import lockstep.worker.v1.WorkerEvent;
import lockstep.worker.v1.WorkerOutcome;
import lockstep.worker.v1.WorkerTask;

/**
 * A worker process started by the agent. Talks length-delimited protobuf on stdin/stdout: task ->
 * ready, start -> progress... outcome, release -> exit. If stdin closes (the agent died) it exits,
 * and the kernel drops its locks.
 */
public final class WorkerMain {
  private static final long PROGRESS_MILLIS = 100;

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
    WorkerCommand first = WorkerCommand.parseDelimitedFrom(in);
    if (first == null || !first.hasTask()) {
      return 3;
    }
    WorkerTask task = first.getTask();
    Posix posix = Posix.get();
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
    WorkerLoop loop;
    try {
      loop = loopFor(task);
      loop.warmUp();
      // The wait for the instant, once, before ready: its native call is linked now, not
      // in the last stretch before the instant.
      WallClockWait.until(WallClock.nowNanos() + 1_000_000L, () -> false);
    } catch (PosixException e) {
      send(failure(WorkloadErrors.of(e, Path.of(task.getRoot()), "while setting up")));
      return 0;
    }
    // Everything between the start command and the wait is made before ready too, so the
    // command only has to be read: a cold JVM's first thread and lambda cost milliseconds.
    ScheduledExecutorService ticker =
        Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("progress"));
    Runnable progress =
        () ->
            sendQuietly(
                WorkerEvent.newBuilder()
                    .setProgress(
                        ProgressSample.newBuilder()
                            .setAtUnixNanos(WallClock.nowNanos())
                            .setOps(loop.ops()))
                    .build());
    ticker.submit(() -> {});
    send(WorkerEvent.newBuilder().setReadyPid(posix.getpid()).build());

    WorkerCommand next = WorkerCommand.parseDelimitedFrom(in);
    if (next == null
        || next.hasRelease()
        || next.getCommandCase() != WorkerCommand.CommandCase.START_AT_UNIX_NANOS) {
      return 0;
    }
    if (!task.getInstrumentationOff()) {
      ticker.scheduleAtFixedRate(progress, PROGRESS_MILLIS, PROGRESS_MILLIS, TimeUnit.MILLISECONDS);
    }
    Thread stdinWatcher =
        new Thread(
            () -> {
              try {
                // Anything on stdin now (release, or EOF because the agent died) ends the worker;
                // exiting closes every file, which drops the locks.
                WorkerCommand.parseDelimitedFrom(in);
              } catch (IOException ignored) {
                // EOF or broken pipe: same as release
              }
              loop.stop();
              System.exit(0);
            },
            "stdin");
    stdinWatcher.start();
    WorkerOutcome outcome;
    try {
      outcome = loop.run(next.getStartAtUnixNanos());
    } catch (RuntimeException e) {
      // Without an outcome the agent would wait for this worker until the run's timeout.
      loop.stop();
      outcome =
          failure(
                  WorkloadError.newBuilder()
                      .setOperation("worker")
                      .setMessage("worker process " + posix.getpid() + " failed: " + e)
                      .build())
              .getOutcome();
    }
    ticker.shutdownNow();
    send(WorkerEvent.newBuilder().setOutcome(outcome).build());
    try {
      stdinWatcher.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return 0;
  }

  static long filesNeeded(WorkerTask task) {
    return WorkloadKind.of(task.getWorkload()).openFilesPerWorker(task.getWorkload());
  }

  private static WorkerLoop loopFor(WorkerTask task) {
    Path root = Path.of(task.getRoot());
    WorkloadSpec spec = task.getWorkload();
    boolean instrumented = !task.getInstrumentationOff();
    return switch (spec.getKindCase()) {
      case LOCK_FILES ->
          new LockFilesLoop(
              Path.of(task.getDir()),
              task.getFilePrefix(),
              spec.getLockFiles(),
              root,
              instrumented);
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
    return WorkerEvent.newBuilder().setOutcome(WorkerOutcome.newBuilder().setError(error)).build();
  }

  private synchronized void send(WorkerEvent event) throws IOException {
    event.writeDelimitedTo(out);
    out.flush();
  }

  private void sendQuietly(WorkerEvent event) {
    try {
      send(event);
    } catch (IOException ignored) {
      // agent gone: the stdin watcher ends the process
    }
  }
}
