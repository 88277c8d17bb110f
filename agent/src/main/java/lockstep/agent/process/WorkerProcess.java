package lockstep.agent.process;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import lockstep.agent.v1.WorkloadError;
import lockstep.agent.v1.WorkloadResult;
import lockstep.agent.worker.WorkerMain;
import lockstep.common.WorkloadKind;
import lockstep.worker.v1.WorkerCommand;
import lockstep.worker.v1.WorkerEvent;
import lockstep.worker.v1.WorkerOutcome;
import lockstep.worker.v1.WorkerTask;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * One worker OS process, started from the agent's own classpath and watched: its events arrive on a
 * reader thread; if it dies before reporting, its outcome says so. It is launched (its JVM starts
 * and loads what every workload needs) and then assigned its task: at once for a step's own
 * workers, later for a spare ({@link SpareWorkers}).
 */
final class WorkerProcess {
  private static final Logger LOG = LogManager.getLogger(WorkerProcess.class);
  // Small, fast-starting JVMs: a worker only opens files and takes locks. Its few log lines
  // (errors, as Log4j's default configuration had them) go to stderr through log4j-api's simple
  // logger: Log4j's core, looking for a configuration and loading its plugins, was 650 of a
  // worker's 1,700 classes and 6 s of its 28 s start on a one-CPU emulated guest.
  private static final List<String> JVM_OPTIONS =
      List.of(
          "-XX:+UseSerialGC",
          "-Xms16m",
          "-Xmx128m",
          "-Xss512k",
          "-XX:-UsePerfData",
          // the JVM's own warnings go to stdout by default, which is the worker's event stream
          "-Xlog:disable",
          "-Xlog:all=error:stderr",
          "-Dlog4j2.loggerContextFactory=org.apache.logging.log4j.simple.SimpleLoggerContextFactory");

  // C2 only for a timed loop (ping-pong, hot-lock) on a node with a CPU to spare for the
  // compiler: the loop runs for seconds in one method and C2's code pays back its compile time
  // (C1-only code cost a third of ping-pong's rate on a 2-core host's tmpfs). A counted workload
  // (lock-files) is over in tens of milliseconds on a fast file system: there C1's quick code
  // wins. And with no CPU to spare C2's compiler threads take it from the loop (ping-pong on a
  // one-CPU GFS2 guest: 3,224-3,413 locks/s with C2, 3,782-4,212 with C1 only).
  //
  // C1 compiles a method after a few hundred calls, more while its queue is long (as it is in a
  // just-started JVM): the warm-up's 400 files did not reach that, and the per-file path was
  // compiled during the measured part, by ten compiler threads beside ten workers (lock-files
  // 10 x 1000 on tmpfs: ~120k locks/s, with a tenth of the thresholds ~280k). With a tenth the
  // warm-up compiles the whole path before the instant.
  private static final List<String> C1_ONLY =
      List.of("-XX:TieredStopAtLevel=1", "-XX:CompileThresholdScaling=0.1");

  /**
   * Extra options for the worker JVMs, split at white space, after the defaults (so they win): a
   * profile of the workers ({@code -XX:StartFlightRecording=filename=/tmp/w-%p.jfr}) or another JIT
   * setting, without another build.
   */
  static final String EXTRA_OPTIONS_ENV = "LOCKSTEP_WORKER_JAVA_OPTIONS";

  private final Process process;
  private final OutputStream stdin;
  private final boolean c2;
  private final CompletableFuture<Long> loaded = new CompletableFuture<>();
  private final CompletableFuture<Long> ready = new CompletableFuture<>();
  private final CompletableFuture<WorkerOutcome> outcome = new CompletableFuture<>();
  private final WorkerClassArchive.Use classArchive;
  private volatile int index = -1;
  private volatile CountFile count = CountFile.NONE;
  private final long launchedNanos = System.nanoTime();

  private WorkerProcess(Process process, boolean c2, WorkerClassArchive.Use classArchive) {
    this.process = process;
    this.stdin = process.getOutputStream();
    this.c2 = c2;
    this.classArchive = classArchive;
  }

  /**
   * The worker JVM's options: the defaults, C1 only unless {@code c2} (see above), then those of
   * {@code extra} (may be null).
   */
  static List<String> jvmOptions(boolean c2, String extra) {
    return jvmOptions(c2, WorkerClassArchive.Use.NONE, extra);
  }

  /** As above, with the class-data archive's options before {@code extra}. */
  static List<String> jvmOptions(boolean c2, WorkerClassArchive.Use classArchive, String extra) {
    List<String> options = new ArrayList<>(JVM_OPTIONS);
    if (!c2) {
      options.addAll(C1_ONLY);
    }
    options.addAll(classArchive.options());
    if (extra != null && !extra.isBlank()) {
      options.addAll(List.of(extra.trim().split("\\s+")));
    }
    return options;
  }

  /** Whether the task's worker JVM gets C2: a timed loop, and more CPUs than worker processes. */
  static boolean c2(WorkerTask task, int cpus) {
    WorkloadKind<?> kind = WorkloadKind.of(task.getWorkload());
    return kind.timedMillis(task.getWorkload()) > 0 && cpus > kind.workers(task.getWorkload());
  }

  /** Whether {@code task}'s worker JVM gets C2, on this machine. */
  static boolean c2For(WorkerTask task) {
    return c2(task, Runtime.getRuntime().availableProcessors());
  }

  /** A worker for {@code task}: a spare started with the options it needs, else one started now. */
  static WorkerProcess start(WorkerTask task) throws IOException {
    WorkerProcess w = SpareWorkers.get().take(c2For(task));
    if (w == null) {
      w = launch(c2For(task));
    }
    try {
      w.assign(task);
    } catch (IOException | RuntimeException e) {
      w.kill();
      throw e;
    }
    return w;
  }

  /** Starts a worker JVM that loads what every workload needs and then waits for its task. */
  static WorkerProcess launch(boolean c2) throws IOException {
    String extra = System.getenv(EXTRA_OPTIONS_ENV);
    WorkerClassArchive.Use classArchive = WorkerClassArchive.forThisJvm().use(extra);
    try {
      List<String> command = new ArrayList<>();
      command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
      command.addAll(jvmOptions(c2, classArchive, extra));
      command.add("-cp");
      command.add(System.getProperty("java.class.path"));
      command.add(WorkerMain.class.getName());
      Process p =
          new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
      WorkerProcess worker = new WorkerProcess(p, c2, classArchive);
      Thread reader = new Thread(worker::readEvents, "worker-" + p.pid() + "-events");
      reader.setDaemon(true);
      reader.start();
      return worker;
    } catch (IOException | RuntimeException e) {
      classArchive.exited(false);
      throw e;
    }
  }

  /** Hands the worker its task; it answers ready once set up ({@link #awaitReady}). */
  void assign(WorkerTask task) throws IOException {
    CountFile c = CountFile.make(task.getWorkload().getInstrumentationOff());
    count = c;
    index = task.getIndex();
    try {
      send(WorkerCommand.newBuilder().setTask(task.toBuilder().setProgressFile(c.path())).build());
    } catch (IOException e) {
      c.remove();
      throw e;
    }
  }

  /**
   * Nanos since its JVM was launched ({@link System#nanoTime}): for a spare, also the time it
   * waited, so never less than its start took.
   */
  long sinceLaunchNanos() {
    return System.nanoTime() - launchedNanos;
  }

  /** Whether its JVM compiles with C2 (a spare is taken only for a task that needs the same). */
  boolean c2() {
    return c2;
  }

  /** Whether its JVM has loaded and waits for a task, within {@code millis}. */
  boolean awaitLoaded(long millis) {
    try {
      loaded.get(millis, TimeUnit.MILLISECONDS);
      return true;
    } catch (TimeoutException | ExecutionException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  boolean alive() {
    return process.isAlive() && !outcome.isDone();
  }

  private void readEvents() {
    try (InputStream in = new BufferedInputStream(process.getInputStream())) {
      WorkerEvent event;
      while ((event = WorkerEvent.parseDelimitedFrom(in)) != null) {
        switch (event.getEventCase()) {
          case LOADED_PID -> loaded.complete(event.getLoadedPid());
          case READY_PID -> {
            count.remove(); // both have it mapped now
            ready.complete(event.getReadyPid());
          }
          case OUTCOME -> {
            ready.completeExceptionally(
                new WorkerFailedException(event.getOutcome().getResult().getError()));
            outcome.complete(event.getOutcome());
          }
          default -> LOG.warn("worker {}: unknown event {}", index, event);
        }
      }
    } catch (IOException e) {
      LOG.debug("worker {}: events ended: {}", index, e.toString());
    } finally {
      count.remove();
    }
    loaded.completeExceptionally(new IllegalStateException("worker exited"));
    WorkloadError died =
        WorkloadError.newBuilder()
            .setOperation("worker process")
            .setMessage(
                "worker process "
                    + index
                    + " (pid "
                    + process.pid()
                    + ") exited"
                    + exitCodeText()
                    + " before reporting its result")
            .build();
    ready.completeExceptionally(new WorkerFailedException(died));
    outcome.complete(
        WorkerOutcome.newBuilder()
            .setResult(WorkloadResult.newBuilder().setOps(count.get()).setError(died))
            .build());
  }

  private String exitCodeText() {
    try {
      if (process.waitFor(2, TimeUnit.SECONDS)) {
        return " with code " + process.exitValue();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return "";
  }

  long pid() {
    return process.pid();
  }

  /** The worker's count: its outcome's once it has one, else what its counter holds now. */
  long ops() {
    WorkerOutcome done = outcome.getNow(null);
    return done != null ? done.getResult().getOps() : count.get();
  }

  /** Waits until the worker has set up; throws with the worker's error if it could not. */
  void awaitReady(long timeoutMillis) throws WorkerFailedException {
    try {
      ready.get(timeoutMillis, TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof WorkerFailedException w) {
        throw w;
      }
      throw new WorkerFailedException(
          error("worker " + index + " failed to start: " + e.getCause()));
    } catch (TimeoutException e) {
      throw new WorkerFailedException(
          error("worker " + index + " was not ready within " + timeoutMillis + " ms"));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new WorkerFailedException(error("interrupted while waiting for worker " + index));
    }
  }

  void start(long startAtUnixNanos) throws IOException {
    send(WorkerCommand.newBuilder().setStartAtUnixNanos(startAtUnixNanos).build());
  }

  CompletableFuture<WorkerOutcome> outcome() {
    return outcome;
  }

  /** Asks the worker to exit (which drops its locks) and waits; kills it if it does not. */
  void release(long timeoutMillis) {
    try {
      send(WorkerCommand.newBuilder().setRelease(true).build());
      stdin.close();
    } catch (IOException ignored) {
      // already gone
    }
    try {
      if (process.waitFor(timeoutMillis, TimeUnit.MILLISECONDS)) {
        // a worker that failed may have listed half its classes
        classArchive.exited(process.exitValue() == 0);
      } else {
        LOG.warn(
            "worker {} (pid {}) did not exit within {} ms; killing it",
            index,
            process.pid(),
            timeoutMillis);
        kill();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      kill();
    }
  }

  void kill() {
    process.destroyForcibly();
    try {
      process.waitFor(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    classArchive.exited(false);
  }

  private synchronized void send(WorkerCommand command) throws IOException {
    command.writeDelimitedTo(stdin);
    stdin.flush();
  }

  private static WorkloadError error(String message) {
    return WorkloadError.newBuilder().setOperation("worker process").setMessage(message).build();
  }

  static final class WorkerFailedException extends Exception {
    private final transient WorkloadError error;

    WorkerFailedException(WorkloadError error) {
      super(error.getMessage());
      this.error = error;
    }

    WorkloadError error() {
      return error;
    }
  }
}
