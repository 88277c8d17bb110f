package lockstep.coordinator.workloads;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import lockstep.coordinator.cli.LockstepCli;
import lockstep.coordinator.local.LocalAgents;

/** Runs a scenario through the real CLI against real agent processes and reads its run.json. */
final class ScenarioRuns {
  private static final ObjectMapper JSON = new ObjectMapper();

  private ScenarioRuns() {}

  record Outcome(int exitCode, JsonNode run) {
    JsonNode step(String id) {
      for (JsonNode s : run.get("steps")) {
        if (s.get("id").asText().equals(id)) {
          return s;
        }
      }
      throw new AssertionError("no step " + id + " in " + run.get("steps"));
    }

    JsonNode node(String stepId, String node) {
      for (JsonNode n : step(stepId).get("results")) {
        if (n.get("node").asText().equals(node)) {
          return n;
        }
      }
      throw new AssertionError("no node " + node + " in step " + stepId);
    }
  }

  static Outcome run(LocalAgents agents, Path work, String name, String workloadYaml, String plan) {
    try {
      Path scenario = work.resolve(name + ".yaml");
      Files.writeString(
          scenario,
          "name: "
              + name
              + "\nplan: "
              + plan
              + "\ntimeout: 3m\nworkload:\n"
              + workloadYaml.indent(2));
      Path out = work.resolve("results-" + name);
      int code =
          LockstepCli.commandLine()
              .execute(
                  "run",
                  scenario.toString(),
                  "--agents",
                  String.join(",", agents.addresses()),
                  "--out",
                  out.toString());
      List<Path> runs = new ArrayList<>();
      if (Files.isDirectory(out)) {
        try (Stream<Path> s = Files.walk(out)) {
          s.filter(p -> p.getFileName().toString().equals("run.json")).forEach(runs::add);
        }
      }
      assertThat(runs).as("one run.json for %s (exit %d)", name, code).hasSize(1);
      return new Outcome(code, JSON.readTree(runs.get(0).toFile()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
