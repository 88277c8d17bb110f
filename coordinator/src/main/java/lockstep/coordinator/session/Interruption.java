package lockstep.coordinator.session;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import lockstep.agent.v1.CleanupResponse;
import lockstep.agent.v1.ProgressSample;
import lockstep.agent.v1.RunState;
import lockstep.coordinator.agent.AgentEnsemble;
import lockstep.coordinator.agent.AgentEnsemble.FanOut;
import lockstep.coordinator.model.RunRecord;
import lockstep.coordinator.model.RunStatus;
import lockstep.coordinator.model.StepRecord;
import lockstep.coordinator.report.ResultsStore;
import lockstep.coordinator.results.RunFailedException;
import lockstep.coordinator.run.ExperimentRunner;
import lockstep.coordinator.run.RunListener;
import lockstep.coordinator.run.StepRunner;

/**
 * Ctrl-C or SIGTERM during a run: a JVM shutdown hook aborts and cleans the step in progress on
 * every agent (short deadlines), saves the run so far as run.json with status "interrupted", prints
 * one line and ends the process with exit code 130, all within about 5 s. The main thread's own
 * output is held back once interrupted.
 */
public final class Interruption implements AutoCloseable {
  public static final int EXIT_INTERRUPTED = 130;
  public static final RunStatus STATUS = RunStatus.INTERRUPTED;
  static final Duration ABORT_BUDGET = Duration.ofMillis(1_500);
  static final Duration CLEANUP_BUDGET = Duration.ofMillis(2_500);

  private final Object lock = new Object();
  private volatile ExperimentRunner runner;
  private final AgentEnsemble ensemble;
  private final ResultsStore store;
  private final String runId;
  private final PrintStream err;
  private final Thread hook;
  private volatile boolean interrupted;
  private boolean finished;

  private Interruption(AgentEnsemble ensemble, ResultsStore store, String runId, PrintStream err) {
    this.ensemble = ensemble;
    this.store = store;
    this.runId = runId;
    this.err = err;
    this.hook = new Thread(this::onSignal, "lockstep-interrupt");
  }

  /** Installs the shutdown hook for one run; {@link #close} removes it. */
  public static Interruption install(
      AgentEnsemble ensemble, ResultsStore store, String runId, PrintStream err) {
    Interruption i = new Interruption(ensemble, store, runId, err);
    Runtime.getRuntime().addShutdownHook(i.hook);
    return i;
  }

  /** The run whose step to stop and whose record to save. */
  public void attach(ExperimentRunner runner) {
    this.runner = runner;
  }

  /** A listener that goes quiet once the run is interrupted (the hook prints the one line). */
  public RunListener quiet(RunListener inner) {
    return new RunListener() {
      @Override
      public void stepArmed(String stepId, List<String> nodes, long startInMillis) {
        if (!interrupted) {
          inner.stepArmed(stepId, nodes, startInMillis);
        }
      }

      @Override
      public void progress(String stepId, String node, ProgressSample sample, RunState state) {
        if (!interrupted) {
          inner.progress(stepId, node, sample, state);
        }
      }

      @Override
      public void stepFinished(StepRecord step) {
        if (!interrupted) {
          inner.stepFinished(step);
        }
      }

      @Override
      public void warmedUp(List<String> nodes, StepRecord step) {
        if (!interrupted) {
          inner.warmedUp(nodes, step);
        }
      }

      @Override
      public void settling(String stepId, String why) {
        if (!interrupted) {
          inner.settling(stepId, why);
        }
      }
    };
  }

  /**
   * Saves and prints the finished run, unless the hook has taken over (then it ends the process).
   */
  public <T> T finish(Supplier<T> saveAndPrint) {
    synchronized (lock) {
      if (interrupted) {
        throw new RunFailedException(List.of("interrupted"));
      }
      T value = saveAndPrint.get();
      finished = true;
      return value;
    }
  }

  private void onSignal() {
    synchronized (lock) {
      if (finished) {
        return;
      }
      interrupted = true;
      long t0 = System.nanoTime();
      ExperimentRunner r = runner;
      StepRunner.ActiveStep step = r == null ? null : r.activeStep();
      String where = "before the first step";
      String cleaned = "";
      if (step != null) {
        where = "during step " + step.stepId();
        ensemble.call(
            "abort",
            ABORT_BUDGET,
            step.agents(),
            a -> a.abort(step.agentRunId(), "the coordinator was interrupted"));
        FanOut<CleanupResponse> c =
            ensemble.call(
                "cleanup", CLEANUP_BUDGET, step.agents(), a -> a.cleanup(step.agentRunId()));
        ensemble.call(
            "cleanup",
            ABORT_BUDGET,
            List.copyOf(c.values().keySet()),
            a -> a.removeRunDir(step.agentRunId()));
        long files = c.values().values().stream().mapToLong(CleanupResponse::getFilesRemoved).sum();
        cleaned =
            String.format(
                "; aborted and cleaned on %d of %d agent(s), %d file(s) removed%s",
                c.values().size(),
                step.agents().size(),
                files,
                c.ok()
                    ? ""
                    : " (not cleaned: "
                        + String.join(
                            ", ", c.errors().keySet().stream().map(a -> a.address()).toList())
                        + "; their lease removes the files)");
      }
      List<String> errors = new ArrayList<>();
      errors.add("interrupted " + where + cleaned);
      RunRecord partial = r == null ? null : r.snapshot(STATUS, errors);
      String saved = "";
      if (partial != null) {
        try {
          Path p = store.save(partial);
          saved = "; partial results in " + p;
        } catch (RuntimeException e) {
          saved = "; partial results not saved: " + e.getMessage();
        }
      }
      err.printf(
          "lockstep: run %s interrupted %s%s%s (%.1f s)%n",
          runId, where, cleaned, saved, (System.nanoTime() - t0) / 1e9);
      err.flush();
      Runtime.getRuntime().halt(EXIT_INTERRUPTED);
    }
  }

  @Override
  public void close() {
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException e) {
      // shutting down: the hook runs (or has run)
    }
  }
}
