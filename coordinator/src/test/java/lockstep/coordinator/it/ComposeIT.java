package lockstep.coordinator.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import lockstep.testsupport.Required;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 19 goal 4: {@code deploy/compose/compose.yaml} brought up for real with the local agent
 * image (deploy/docker/Dockerfile: the agent's .deb on LOCKSTEP_DEBIAN_IMAGE), with {@code
 * compose.loopback.yaml} so that every container uses the host's network and the agents listen on
 * 127.0.0.21..23 (no bridge addresses); certificates made by {@code lockstep certs} from the
 * compose's own nodes.yaml; the compose's scenario (at 16 MiB per node) run by {@code run --rm
 * coordinator}; then {@code down -v}: no container, volume or network of the project is left.
 */
class ComposeIT {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;
  private final String project =
      "lockstep-it-" + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt());
  private List<String> compose;
  private String image;
  private boolean up;

  /** {@code docker compose} (the plugin) when present, else Debian's docker-compose 1.29. */
  private static List<String> composeCommand() throws Exception {
    try {
      Process p =
          new ProcessBuilder("docker", "compose", "version")
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.DISCARD)
              .start();
      if (p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0) {
        return List.of("docker", "compose");
      }
    } catch (IOException noDocker) {
      // fall through to docker-compose
    }
    return List.of(Required.program("docker-compose", "docker-compose").toString());
  }

  record Outcome(int code, String out) {}

  private Outcome compose(long timeoutSeconds, String... args) throws Exception {
    List<String> cmd = new ArrayList<>(compose);
    cmd.addAll(
        List.of(
            "-p",
            project,
            "-f",
            dir.resolve("compose.yaml").toString(),
            "-f",
            dir.resolve("compose.loopback.yaml").toString()));
    cmd.addAll(List.of(args));
    Path log = Files.createTempFile(dir, "compose", ".log");
    ProcessBuilder pb =
        new ProcessBuilder(cmd)
            .directory(dir.toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile());
    pb.environment().put("LOCKSTEP_IMAGE", image);
    Process p = pb.start();
    if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
      p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      throw new AssertionError(
          String.join(" ", args) + " did not end within " + timeoutSeconds + " s:\n" + read(log));
    }
    String out = read(log);
    System.out.println("$ " + String.join(" ", cmd) + "\n" + out + "(exit " + p.exitValue() + ")");
    return new Outcome(p.exitValue(), out);
  }

  private static String read(Path p) throws IOException {
    return Files.readString(p, StandardCharsets.UTF_8);
  }

  /** {@code docker KIND ls -q --filter label=com.docker.compose.project=PROJECT}. */
  private List<String> leftOver(String... kind) throws Exception {
    List<String> cmd = new ArrayList<>(List.of("docker"));
    cmd.addAll(List.of(kind));
    cmd.addAll(List.of("-q", "--filter", "label=com.docker.compose.project=" + project));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    return out.lines().filter(l -> !l.isBlank()).toList();
  }

  @AfterEach
  void down() throws Exception {
    if (up) {
      compose(120, "down", "-v", "--remove-orphans", "--timeout", "10");
      assertThat(leftOver("ps", "-a")).as("containers of " + project).isEmpty();
      assertThat(leftOver("volume", "ls")).as("volumes of " + project).isEmpty();
      assertThat(leftOver("network", "ls")).as("networks of " + project).isEmpty();
    }
  }

  @Test
  void theComposeClusterRunsItsScenarioAndLeavesNothingBehind() throws Exception {
    Requirements.docker();
    compose = composeCommand();
    image = AgentImage.get();
    long began = System.nanoTime();
    Path src = RepoFiles.root().resolve("deploy/compose");
    for (String f : List.of("compose.yaml", "compose.loopback.yaml", "nodes.yaml")) {
      Files.copy(src.resolve(f), dir.resolve(f));
    }
    String scenario = read(src.resolve("scenario.yaml"));
    assertThat(scenario).contains("size: 256MiB");
    Files.writeString(
        dir.resolve("scenario.yaml"), scenario.replace("size: 256MiB", "size: 16MiB"));
    Cli certs =
        Cli.run(
            "certs",
            "--inventory",
            dir.resolve("nodes.yaml").toString(),
            "--out",
            dir.resolve("certs").toString());
    assertThat(certs.exitCode()).as(certs.err()).isZero();
    Files.createDirectories(dir.resolve("results"));

    up = true;
    Outcome started = compose(180, "up", "-d");
    assertThat(started.code()).as(started.out()).isZero();
    Outcome run = compose(600, "run", "--rm", "coordinator");
    assertThat(run.code()).as(run.out()).isZero();
    assertThat(run.out()).contains("Results: /results/");

    JsonNode r = JSON.readTree(Cli.runJson(dir.resolve("results")).toFile());
    assertThat(r.path("status").asText()).isEqualTo("ok");
    assertThat(r.path("agents").findValuesAsText("node"))
        .containsExactlyInAnyOrder("node1", "node2", "node3");
    List<String> steps = new ArrayList<>();
    for (JsonNode s : r.path("steps")) {
      steps.add(s.path("id").asText());
      for (JsonNode n : s.path("results")) {
        assertThat(n.path("bytes").asLong())
            .as(s.path("id") + " " + n.path("node"))
            .isEqualTo(16L << 20);
      }
    }
    assertThat(steps).containsExactly("solo-node1", "solo-node2", "solo-node3", "all");
    System.out.printf("ComposeIT: up + scenario in %.1f s%n", (System.nanoTime() - began) / 1e9);
  }
}
