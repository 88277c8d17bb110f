package lockstep.coordinator.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import lockstep.coordinator.local.LocalAgents;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Owned runs over mTLS, with real processes: two agent processes that require client certificates
 * from `lockstep certs`; a coordinator process runs a step as CN=lockstep-coordinator; a third
 * coordinator process with another certificate of the same CA (CN=mallory, from `lockstep certs
 * --add-coordinator`) can neither abort, clean nor collect that run, and changes nothing; the
 * owner's `lockstep abort` from another process stops it everywhere and removes its files.
 */
class OwnershipIT {
  @TempDir Path tmp;

  private LocalAgents agents;
  private final List<Coordinator> coordinators = new ArrayList<>();

  @AfterEach
  void stop() throws IOException {
    for (Coordinator c : coordinators) {
      c.killAndPrint();
    }
    if (agents != null) {
      agents.close();
    }
  }

  private Path certs() {
    return tmp.resolve("certs");
  }

  private List<String> tls(String cert) {
    return List.of(
        "--tls-ca",
        certs().resolve("ca.pem").toString(),
        "--tls-cert",
        certs().resolve(cert + ".pem").toString(),
        "--tls-key",
        certs().resolve(cert + "-key.pem").toString());
  }

  private Coordinator coordinator(String name, List<String> args) throws IOException {
    Coordinator c = Coordinator.start(tmp.resolve(name), args.toArray(String[]::new));
    coordinators.add(c);
    return c;
  }

  private List<String> args(String... first) {
    List<String> a = new ArrayList<>(List.of(first));
    a.addAll(List.of("--agents", String.join(",", agents.addresses())));
    return a;
  }

  private static int exitWithin(Coordinator c, Duration bound) throws InterruptedException {
    assertThat(c.process().waitFor(bound.toMillis(), TimeUnit.MILLISECONDS))
        .as("exits within %s", bound)
        .isTrue();
    return c.process().exitValue();
  }

  private List<Path> filesUnder(int node) throws IOException {
    Path root = agents.roots().get(node - 1);
    try (Stream<Path> s = Files.walk(root)) {
      return s.filter(p -> !p.equals(root)).toList();
    }
  }

  @Test
  void aThirdCoordinatorWithAnotherCertificateCanNeitherAbortCleanNorCollectARunItDidNotPrepare()
      throws Exception {
    Path inventory =
        Files.writeString(
            tmp.resolve("nodes.yaml"),
            "nodes:\n"
                + "  - {name: node1, address: '127.0.0.1:7070', root: /r}\n"
                + "  - {name: node2, address: '127.0.0.1:7071', root: /r}\n");
    assertThat(
            Cli.run("certs", "--inventory", inventory.toString(), "--out", certs().toString())
                .exitCode())
        .isZero();
    assertThat(
            Cli.run("certs", "--add-coordinator", "mallory", "--out", certs().toString())
                .exitCode())
        .isZero();
    List<LocalAgents.Node> nodes = new ArrayList<>();
    for (int i = 1; i <= 2; i++) {
      Path root = Files.createDirectories(tmp.resolve("node" + i));
      nodes.add(
          new LocalAgents.Node(
              "node" + i,
              root,
              tmp.resolve("node" + i + ".log"),
              List.of(),
              List.of(
                  "--tls-cert", certs().resolve("agent-node" + i + ".pem").toString(),
                  "--tls-key", certs().resolve("agent-node" + i + "-key.pem").toString(),
                  "--tls-client-ca", certs().resolve("ca.pem").toString())));
    }
    agents = LocalAgents.start(nodes);

    Cli plaintext = Cli.run(args("agents").toArray(String[]::new));
    assertThat(plaintext.exitCode()).as("an agent with TLS refuses plaintext").isNotZero();

    Path scenario =
        Files.writeString(
            tmp.resolve("owned.yaml"),
            "name: owned\n"
                + "plan: [all]\n"
                + "timeout: 10m\n"
                + "workload: {type: hot-lock, processes: 2, duration: 60s}\n");
    List<String> runArgs =
        args("run", scenario.toString(), "--out", tmp.resolve("results").toString());
    runArgs.addAll(tls("coordinator"));
    Coordinator owner = coordinator("owner", runArgs);
    await()
        .atMost(Duration.ofSeconds(90))
        .pollInterval(Duration.ofMillis(50))
        .until(
            () -> owner.out().contains("armed, starting together") || !owner.process().isAlive());
    assertThat(owner.process().isAlive()).as(owner.err()).isTrue();
    Matcher m = Pattern.compile("Run (\\S+):").matcher(owner.out());
    assertThat(m.find()).isTrue();
    String runId = m.group(1);
    List<Path> held1 = filesUnder(1);
    List<Path> held2 = filesUnder(2);
    assertThat(held1).anyMatch(p -> p.toString().endsWith(".all/hot-lock.dat"));

    List<String> abortArgs = args("abort", runId);
    abortArgs.addAll(tls("coordinator-mallory"));
    Coordinator mallory = coordinator("mallory-abort", abortArgs);
    assertThat(exitWithin(mallory, Duration.ofSeconds(60))).isEqualTo(1);
    assertThat(mallory.err().lines().filter(l -> !l.isBlank()).toList())
        .hasSize(2)
        .allSatisfy(
            l ->
                assertThat(l)
                    .containsPattern(
                        "abort of run "
                            + Pattern.quote(runId)
                            + "\\.all on node node[12] refused: the run belongs to"
                            + " cert:\\S*CN=lockstep-coordinator")
                    .containsPattern("this call comes from cert:\\S*CN=mallory"));
    assertThat(mallory.err()).doesNotContain("Exception");

    List<String> collectArgs =
        args("collect", runId, "--out", tmp.resolve("mallory-results").toString());
    collectArgs.addAll(tls("coordinator-mallory"));
    Coordinator collect = coordinator("mallory-collect", collectArgs);
    assertThat(exitWithin(collect, Duration.ofSeconds(60))).isEqualTo(1);
    assertThat(collect.err()).contains("belongs to cert:").contains("CN=lockstep-coordinator");
    assertThat(tmp.resolve("mallory-results").resolve(runId)).doesNotExist();

    assertThat(owner.process().isAlive()).as("the owner's run goes on").isTrue();
    assertThat(Signals.children(agents.pids().get(0))).hasSize(2);
    assertThat(Signals.children(agents.pids().get(1))).hasSize(2);
    assertThat(filesUnder(1)).containsExactlyInAnyOrderElementsOf(held1);
    assertThat(filesUnder(2)).containsExactlyInAnyOrderElementsOf(held2);

    List<String> ownerAbortArgs = args("abort", runId);
    ownerAbortArgs.addAll(tls("coordinator"));
    Coordinator ownerAbort = coordinator("owner-abort", ownerAbortArgs);
    long sent = System.nanoTime();
    assertThat(exitWithin(ownerAbort, Duration.ofSeconds(60))).as(ownerAbort.err()).isZero();
    double abortTook = (System.nanoTime() - sent) / 1e9;
    assertThat(ownerAbort.out())
        .contains("node node1: " + runId + ".all aborted")
        .contains("node node2: " + runId + ".all aborted");
    assertThat(exitWithin(owner, Duration.ofSeconds(20))).isEqualTo(1);
    System.out.printf(
        "owner's `lockstep abort` from another process: it exited after %.2f s (JVM start"
            + " included), the running coordinator %.2f s after it started%n",
        abortTook, (System.nanoTime() - sent) / 1e9);
    assertThat(owner.err())
        .contains("node node1: aborted: aborted by `lockstep abort`")
        .contains("node node2: aborted: aborted by `lockstep abort`");
    assertThat(filesUnder(1)).isEmpty();
    assertThat(filesUnder(2)).isEmpty();
    assertThat(Signals.children(agents.pids().get(0))).isEmpty();
    assertThat(Signals.children(agents.pids().get(1))).isEmpty();
  }
}
