package lockstep.coordinator.run;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import lockstep.agent.v1.DescribeResponse;
import lockstep.agent.v1.WriteWorkload;
import lockstep.common.WorkloadKind;
import lockstep.coordinator.agent.Agent;
import lockstep.coordinator.model.StepRecord;
import lockstep.coordinator.scenario.Scenario;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * The unmeasured step a fresh agent (one that has prepared no step since it started) takes before
 * the plan's first: a 1 MiB write through every phase and call a measured step makes (Prepare,
 * clock probes, Start, WatchProgress, KeepAlive, GetResult, Cleanup). On a one-CPU emulated guest a
 * fresh agent's first measured step started 100-150 ms after its instant, its later ones within
 * about 1 ms: the first use of those paths, not the workload, was late. Its record is not part of
 * the run; a failure is logged and the plan goes on (its own steps report what is wrong).
 */
final class WarmUpStep {
  static final String ID = "warm-up";
  private static final Logger LOG = LogManager.getLogger(WarmUpStep.class);

  private WarmUpStep() {}

  /** The nodes whose agents have prepared no step yet. */
  static List<StepNode> fresh(List<StepNode> nodes, Map<Agent, DescribeResponse> described) {
    return nodes.stream().filter(n -> described.get(n.agent()).getStepsPrepared() == 0).toList();
  }

  static Scenario scenario(Scenario measured) {
    Map<String, Object> params = new LinkedHashMap<>();
    params.put("type", WorkloadKind.WRITE.name());
    params.put("file", "lockstep-warm-up.{node}");
    params.put("size", "1MiB");
    params.put("block-size", "64KiB");
    return measured.withWorkload(
        WorkloadKind.WRITE.spec(
            WriteWorkload.newBuilder()
                .setFile("lockstep-warm-up.{node}")
                .setSizeBytes(1 << 20)
                .setBlockSizeBytes(64 << 10)
                .build()),
        params);
  }

  /** Runs the warm-up on {@code fresh}; returns its record (never part of the run's). */
  static StepRecord run(StepRunner runner, String runId, List<StepNode> fresh) {
    long t0 = System.nanoTime();
    StepRecord r = runner.run(runId, ID, ID, fresh);
    long ms = (System.nanoTime() - t0) / 1_000_000;
    if (r.ok()) {
      LOG.info("warm-up step on {} fresh agents: {} ms", fresh.size(), ms);
    } else {
      LOG.warn("warm-up step on {} fresh agents failed ({} ms): {}", fresh.size(), ms, r.errors());
    }
    return r;
  }
}
