package lockstep.agent.process;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import lockstep.agent.fs.PosixException;
import lockstep.agent.fs.WorkloadErrors;
import lockstep.agent.v1.ProcessResult;
import lockstep.agent.v1.RunState;
import lockstep.agent.v1.WorkloadResult;
import lockstep.agent.worker.RunSpan;
import lockstep.common.LatencyHistograms;
import lockstep.common.WallClock;
import lockstep.worker.v1.WorkerOutcome;
import lockstep.worker.v1.WorkerTask;
import org.HdrHistogram.Histogram;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * The worker OS processes of one multi-process workload: started and ready at prepare (JVM start-up
 * is never measured), started at the instant, their outcomes merged into one result (ops, retries
 * and coherence counts summed, histograms added), released at cleanup.
 */
public final class ProcessFleet {
  private static final Logger LOG = LogManager.getLogger(ProcessFleet.class);
  private static final long LATE_START_NANOS = 10_000_000;
  private static final long READY_TIMEOUT_MILLIS = 120_000;
  private static final long RELEASE_TIMEOUT_MILLIS = 10_000;

  private final List<WorkerProcess> workers = new ArrayList<>();
  private volatile boolean aborted;
  private boolean instrumentationOff;
  private CallDeadline readyBy = CallDeadline.NONE;

  /**
   * Workers started from now on record no latency and keep no count while they run
   * (WorkloadSpec.instrumentation_off).
   */
  public void turnInstrumentationOff() {
    instrumentationOff = true;
  }

  /**
   * Workers started from now on must all be ready by {@code deadline} (the Prepare call's), or the
   * start is refused as soon as it is known they would not be ({@link WorkerStartGuard}).
   */
  public void readyBy(CallDeadline deadline) {
    readyBy = deadline;
  }

  /** Starts one worker per task and waits until all are ready; on failure none is left running. */
  public void start(List<WorkerTask> tasks, String where) {
    try {
      // would they all be ready within the prepare deadline, at the fastest start measured?
      WorkerStartGuard.check(tasks.size(), "workload.processes", readyBy);
      for (WorkerTask t : tasks) {
        workers.add(WorkerProcess.start(instrumentationOff ? withoutInstrumentation(t) : t));
        if (workers.size() == 1 && tasks.size() > 1) {
          // measure one worker before starting the others: would they all fit in memory and start
          // in time?
          workers.get(0).awaitReady(READY_TIMEOUT_MILLIS);
          WorkerStartGuard.record(workers.get(0).sinceLaunchNanos());
          WorkerStartGuard.check(tasks.size() - 1, "workload.processes", readyBy);
          WorkerMemory.check(workers.get(0).pid(), tasks.size(), "workload.processes");
        }
      }
      for (WorkerProcess w : workers) {
        w.awaitReady(READY_TIMEOUT_MILLIS);
      }
      if (workers.size() == 1) {
        WorkerStartGuard.record(workers.get(0).sinceLaunchNanos());
      }
      SpareWorkers.get().awaitLoaded();
    } catch (ResourceLimitException e) {
      killAll();
      throw e;
    } catch (IOException e) {
      killAll();
      throw new PosixException("start worker process", where, 0, "", e.toString());
    } catch (WorkerProcess.WorkerFailedException e) {
      killAll();
      throw WorkloadErrors.asException(e.error(), where);
    }
  }

  private static WorkerTask withoutInstrumentation(WorkerTask task) {
    WorkerTask.Builder b = task.toBuilder();
    b.getWorkloadBuilder().setInstrumentationOff(true);
    return b.build();
  }

  public List<Long> pids() {
    return workers.stream().map(WorkerProcess::pid).toList();
  }

  public long ops() {
    long sum = 0;
    for (WorkerProcess w : workers) {
      sum += w.ops();
    }
    return sum;
  }

  /**
   * Where a worker's late start went, in ms before (-) or after (+) the instant: the start command
   * sent, read by the worker, its loop waiting, its first attempt.
   */
  private static void logLateStart(WorkerProcess w, WorkerOutcome o, long sent, long instant) {
    long started = o.getResult().getStartedUnixNanos();
    if (started - instant > LATE_START_NANOS) {
      LOG.info(
          "worker {} started {} ms after its instant: start command sent at {} ms, read at {} ms,"
              + " waiting at {} ms",
          w.pid(),
          millis(started - instant),
          millis(sent - instant),
          o.getCommandReadUnixNanos() == 0 ? "?" : millis(o.getCommandReadUnixNanos() - instant),
          o.getWaitingUnixNanos() == 0 ? "?" : millis(o.getWaitingUnixNanos() - instant));
    }
  }

  private static String millis(long nanos) {
    return String.format(Locale.ROOT, "%+.1f", nanos / 1e6);
  }

  public WorkloadResult.Builder run(long startAtUnixNanos, String opName) {
    WorkloadResult.Builder result = WorkloadResult.newBuilder().setOpName(opName);
    long sent = WallClock.nowNanos();
    for (WorkerProcess w : workers) {
      try {
        w.start(startAtUnixNanos);
      } catch (IOException e) {
        result.setError(
            WorkloadErrors.of("start", "could not start worker pid " + w.pid() + ": " + e));
      }
    }
    Histogram latency = LatencyHistograms.create();
    RunSpan span = new RunSpan();
    long ops = 0;
    long retries = 0;
    long coherenceErrors = 0;
    long checks = 0;
    for (WorkerProcess w : workers) {
      WorkerOutcome outcome = awaitOutcome(w);
      logLateStart(w, outcome, sent, startAtUnixNanos);
      WorkloadResult o = outcome.getResult();
      ProcessResult.Builder pr =
          ProcessResult.newBuilder()
              .setPid(w.pid())
              .setOps(o.getOps())
              .setFirstOpUnixNanos(o.getFirstOpUnixNanos())
              .setStartedUnixNanos(o.getStartedUnixNanos())
              .setEndUnixNanos(o.getEndUnixNanos())
              .setCoherenceErrors(o.getCoherenceErrors())
              .setLockRetries(o.getLockRetries());
      if (o.hasError()) {
        pr.setError(o.getError());
        if (!result.hasError()) {
          result.setError(o.getError());
        }
      }
      result.addProcesses(pr);
      ops += o.getOps();
      retries += o.getLockRetries();
      coherenceErrors += o.getCoherenceErrors();
      checks += o.getCoherenceChecks();
      span.add(o.getStartedUnixNanos(), o.getFirstOpUnixNanos(), o.getEndUnixNanos());
      if (!o.getLatencyHistogram().isEmpty()) {
        latency.add(LatencyHistograms.decode(o.getLatencyHistogram()));
      }
    }
    span.firstOp()
        .ifPresent(first -> result.setFirstOpUnixNanos(first).setEndUnixNanos(span.end()));
    span.started().ifPresent(result::setStartedUnixNanos);
    result
        .setOps(ops)
        .setLockRetries(retries)
        .setCoherenceErrors(coherenceErrors)
        .setCoherenceChecks(checks)
        .setLatencyHistogram(LatencyHistograms.encode(latency));
    if (aborted) {
      return result.setState(RunState.RUN_STATE_ABORTED);
    }
    return result.setState(
        result.hasError() ? RunState.RUN_STATE_FAILED : RunState.RUN_STATE_SUCCEEDED);
  }

  private WorkerOutcome awaitOutcome(WorkerProcess w) {
    while (true) {
      try {
        return w.outcome().get(200, TimeUnit.MILLISECONDS);
      } catch (TimeoutException e) {
        if (aborted) {
          w.kill();
        }
      } catch (ExecutionException e) {
        return failed(e.getCause().toString());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        w.kill();
        return failed("interrupted");
      }
    }
  }

  private static WorkerOutcome failed(String message) {
    return WorkerOutcome.newBuilder()
        .setResult(
            WorkloadResult.newBuilder().setError(WorkloadErrors.of("worker process", message)))
        .build();
  }

  public void abort() {
    aborted = true;
    killAll();
  }

  private void killAll() {
    workers.forEach(WorkerProcess::kill);
  }

  /**
   * Asks every worker to exit (which drops its locks and closes its files); then as many spares
   * start for the next step, if this agent keeps spares ({@link SpareWorkers}).
   */
  public void release() {
    workers.forEach(w -> w.release(RELEASE_TIMEOUT_MILLIS));
    if (!workers.isEmpty()) {
      SpareWorkers.get().refill(workers.get(0).c2(), workers.size());
    }
  }
}
