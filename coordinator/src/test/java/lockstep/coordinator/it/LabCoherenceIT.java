package lockstep.coordinator.it;

import static org.assertj.core.api.Assertions.assertThat;

import lockstep.coordinator.model.Finding;
import lockstep.coordinator.model.NodeResult;
import lockstep.coordinator.model.RunRecord;
import lockstep.coordinator.model.RunStatus;
import lockstep.coordinator.model.Severity;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * The coherence check meets a real gap: on OCFS2 with o2cb, fcntl locks are each node's own, so
 * ping-pong with read-write across both nodes is an INVALID run naming the cause; on GFS2 the same
 * scenario holds (dlm_controld's cluster-wide POSIX locks).
 */
class LabCoherenceIT extends LabTest {
  private static final String SCENARIO =
      "name: lab-coherence\nplan: [all]\nworkload: {type: ping-pong, file: coherence.dat,"
          + " processes: 1, lock: fcntl, io: read-write, duration: 4s, warmup: 2s}\n";

  @AfterAll
  static void limitBack() {
    if (lab != null) {
      LabCluster.set("plock_rate_limit=100");
    }
  }

  @Test
  void onOcfs2WithO2cbFcntlLocksAreNodeLocalAndTheRunIsInvalid() throws Exception {
    RunRecord run = lab.run("ocfs2", SCENARIO, work);
    assertThat(run.status()).isEqualTo(RunStatus.OK);
    Finding invalid =
        run.analysis().findings().stream()
            .filter(f -> f.severity() == Severity.INVALID)
            .findFirst()
            .orElseThrow(() -> new AssertionError("not INVALID: " + run.analysis()));
    assertThat(invalid.message()).contains("INVALID RUN", "o2cb", "node");
    assertThat(run.analysis().findings()).anyMatch(f -> f.code().equals("node-local-locks"));
    long errors =
        run.steps().get(0).results().stream().mapToLong(NodeResult::coherenceErrors).sum();
    System.out.println("OCFS2/o2cb fcntl ping-pong read-write: coherence errors " + errors);
  }

  @Test
  void onGfs2TheSameRingHolds() throws Exception {
    LabCluster.set("plock_rate_limit=0");
    // A 30 s lease: its heartbeats wait 10 s for an answer. The ring's glocks bounce between the
    // guests at every lock (10-25 locks/s each), and one CI run lost node2's agent to a KeepAlive
    // unanswered for the default 5 s while node1's ring stood still.
    RunRecord run = lab.run("gfs2", SCENARIO, work, "--lease", "30s");
    assertThat(run.status()).isEqualTo(RunStatus.OK);
    for (NodeResult n : run.steps().get(0).results()) {
      assertThat(n.coherenceChecks()).as("checks on %s", n.node()).isPositive();
      assertThat(n.coherenceErrors()).as("errors on %s", n.node()).isZero();
    }
    assertThat(run.analysis().findings()).noneMatch(f -> f.severity() == Severity.INVALID);
  }
}
