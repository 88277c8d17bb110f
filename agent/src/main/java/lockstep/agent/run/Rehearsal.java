package lockstep.agent.run;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import lockstep.agent.fs.ScratchDir;
import lockstep.agent.process.CallDeadline;
import lockstep.agent.v1.LockKind;
import lockstep.agent.v1.PingPongWorkload;
import lockstep.agent.v1.PrepareRequest;
import lockstep.agent.v1.RunState;
import lockstep.common.WallClock;
import lockstep.common.WorkloadKind;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * A step rehearsed once when the agent starts, before it takes its first measured one: a short
 * ping-pong on a scratch root of its own on tmpfs, through the same registry, run, worker fleet and
 * telemetry a measured step uses, armed at an instant like one. What a step first needs after its
 * instant (classes loaded, a worker JVM's files in the page cache) is then ready: on a one-CPU
 * emulated guest a fresh agent's first step started 270-590 ms after its instant, its later ones
 * 0.3-4 ms. The real registry's first Prepare waits for it (bounded), so it never runs beside a
 * measured step.
 */
public final class Rehearsal {
  private static final Logger LOG = LogManager.getLogger(Rehearsal.class);

  /** The longest a Prepare waits for the rehearsal before going ahead without it. */
  static final Duration WAIT = Duration.ofSeconds(60);

  private static final Duration CANCEL_WAIT = Duration.ofSeconds(10);

  // long enough for a cold worker to be waiting at the instant, so the ops after it run too
  private static final long LEAD_MILLIS = 1000;
  private final CompletableFuture<Void> done = new CompletableFuture<>();
  private volatile RunState outcome;
  private volatile RunRegistry registry;
  private volatile boolean cancelled;

  private Rehearsal() {}

  /** Starts the rehearsal on a daemon thread; {@link #awaitDone} waits for it. */
  public static Rehearsal start(String nodeName) {
    Rehearsal r = new Rehearsal();
    Thread t = new Thread(() -> r.run(nodeName), "rehearsal");
    t.setDaemon(true);
    t.start();
    return r;
  }

  /** A rehearsal that has nothing to do (tests, or --no-rehearsal). */
  public static Rehearsal none() {
    Rehearsal r = new Rehearsal();
    r.done.complete(null);
    return r;
  }

  /** The rehearsed step's final state; null before it ended or when nothing was rehearsed. */
  public RunState outcome() {
    return outcome;
  }

  /** Ended, and without a failure (a machine without tmpfs rehearses nothing and succeeds). */
  public boolean succeeded() {
    return done.isDone() && !done.isCompletedExceptionally();
  }

  /**
   * Ends the rehearsal now, its worker killed: the agent is stopping, and a worker it started must
   * not outlive it.
   */
  public void cancel() {
    cancelled = true;
    RunRegistry r = registry;
    if (r != null) {
      r.close();
    }
    try {
      done.get(CANCEL_WAIT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException | ExecutionException e) {
      // ended as it could; its failure is logged where it happened
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Waits for the rehearsal to end, at most {@link #WAIT}; its failure is only logged. */
  public void awaitDone() {
    try {
      done.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      LOG.warn("the start-up rehearsal is still running after {}; preparing anyway", WAIT);
    } catch (ExecutionException e) {
      // logged where it happened
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void run(String nodeName) {
    long t0 = System.nanoTime();
    // an agent or worker killed (SIGKILL, a power loss of a container) left its scratch behind
    List<String> orphans = ScratchDir.removeOrphans(ScratchDir.TMPFS);
    if (!orphans.isEmpty()) {
      LOG.info(
          "removed {} scratch directories of processes that are gone: {}", orphans.size(), orphans);
    }
    try (ScratchDir root = ScratchDir.onTmpfs("lockstep-rehearsal")) {
      if (root == null) {
        LOG.info("no tmpfs for the start-up rehearsal: the first step may start late");
        return;
      }
      try (RunRegistry registry = new RunRegistry(new AgentConfig(nodeName, root.path(), "", 0))) {
        this.registry = registry;
        if (cancelled) {
          return;
        }
        String runId = "rehearsal";
        Run run =
            registry.prepare(
                PrepareRequest.newBuilder()
                    .setRunId(runId)
                    .setStepNodeCount(1)
                    .setWorkload(
                        WorkloadKind.PING_PONG.spec(
                            PingPongWorkload.newBuilder()
                                .setFile("rehearsal.dat")
                                .setProcesses(1)
                                .setLock(LockKind.LOCK_KIND_FCNTL)
                                .setDurationMillis(300)
                                .build()))
                    .build(),
                "rehearsal",
                "rehearsal",
                CallDeadline.NONE);
        CompletableFuture<Void> finished = new CompletableFuture<>();
        run.whenFinished(() -> finished.complete(null));
        run.arm(WallClock.nowNanos() + LEAD_MILLIS * 1_000_000);
        finished.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        outcome = run.result().getState();
        registry.discard(runId);
        LOG.info(
            "start-up rehearsal done in {} ms ({})", (System.nanoTime() - t0) / 1_000_000, outcome);
      }
    } catch (Exception | LinkageError e) {
      LOG.warn("start-up rehearsal failed (the first step may start late): {}", e.toString());
      done.completeExceptionally(e);
      return;
    } finally {
      done.complete(null);
    }
  }
}
