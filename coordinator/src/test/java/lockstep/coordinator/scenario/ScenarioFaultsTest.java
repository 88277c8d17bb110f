package lockstep.coordinator.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import lockstep.coordinator.model.Fault;
import lockstep.coordinator.model.FaultAction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The scenario's {@code faults:} list: read into faults, every bad entry one line naming it. */
class ScenarioFaultsTest {
  private static final String HEAD =
      "name: f\nplan: [all]\nworkload: {type: hot-lock, file: h.dat, processes: 1, lock: fcntl,"
          + " duration: 30s}\n";

  private static Scenario parse(String faults) {
    return new ScenarioParser().parse(HEAD + faults, "f.yaml");
  }

  @Test
  void readsKillsFreezesAndPartitions() {
    Scenario s =
        parse(
            "faults: [{at: 5s, node: node2, action: kill}, {at: 20s, node: node1, action: freeze,"
                + " for: 10s}, {at: 1500ms, node: node1, action: partition, for: 2s}]\n");
    assertThat(s.faults())
        .containsExactly(
            new Fault(5_000, "node2", FaultAction.KILL, 0),
            new Fault(20_000, "node1", FaultAction.FREEZE, 10_000),
            new Fault(1_500, "node1", FaultAction.PARTITION, 2_000));
    assertThat(s.faults().get(1).describe()).isEqualTo("freeze node1 at 20 s for 10 s");
    assertThat(s.faults().get(2).describe()).isEqualTo("partition node1 at 1.5 s for 2 s");
    assertThat(s.kind().settings(s.workload())).doesNotContainKey("faults");
  }

  @Test
  void aScenarioWithoutFaultsHasNone() {
    assertThat(parse("").faults()).isEmpty();
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "faults: []|faults: must be a non-empty list",
        "faults: {at: 5s}|faults: must be a non-empty list",
        "faults: [{node: node2, action: kill}]|faults[0].at: is required",
        "faults: [{at: 5s, action: kill}]|faults[0].node: is required",
        "faults: [{at: 5s, node: node2, action: reboot}]|faults[0].action: 'reboot' is not one of"
            + " kill, freeze, partition, restart",
        "faults: [{at: 5s, node: node2, action: freeze}]|faults[0].for: is required for freeze",
        "faults: [{at: 5s, node: node2, action: kill, for: 3s}]|faults[0].for: a kill does not"
            + " end",
        "faults: [{at: 30s, node: node2, action: kill}]|faults[0].at: 30s is not inside the"
            + " workload's 30 s",
        "faults: [{at: soon, node: node2, action: kill}]|faults[0].at: 'soon' is not a duration",
        "faults: [{at: 5s, node: node2, action: kill, when: now}]|faults[0].when: unknown field",
      })
  void refusesABadFaultWithOneLineNamingIt(String faults, String message) {
    assertThatThrownBy(() -> parse(faults + "\n"))
        .isInstanceOf(ScenarioException.class)
        .hasMessageStartingWith("scenario f.yaml: " + message);
  }

  @Test
  void refusesFaultsForAWorkloadThatRunsToDone() {
    assertThatThrownBy(
            () ->
                new ScenarioParser()
                    .parse(
                        "name: f\nworkload: {type: write, size: 1MiB}\n"
                            + "faults: [{at: 1s, node: n1, action: kill}]\n",
                        "f.yaml"))
        .isInstanceOf(ScenarioException.class)
        .hasMessage(
            "scenario f.yaml: faults: need a workload that runs for a time (duration:), so they"
                + " fall inside it");
  }
}
