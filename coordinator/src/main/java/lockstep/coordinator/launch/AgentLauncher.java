package lockstep.coordinator.launch;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;
import lockstep.agent.v1.DescribeResponse;
import lockstep.common.DaemonThreads;
import lockstep.common.ListeningLine;
import lockstep.coordinator.agent.AgentCallException;
import lockstep.coordinator.agent.GrpcAgent;

/**
 * Starts agents on nodes over SSH and ends them: copy the jar (once per content) and start it with
 * the node's Java 17+, or, on a node without one, copy and unpack the agent's tarball (its own
 * runtime, once per content) and start it from there; detached, with a pid file; wait (bounded)
 * until it answers gRPC; stop by pid file.
 */
public final class AgentLauncher {
  private static final Duration SSH_TIMEOUT = Duration.ofSeconds(30);
  private static final Duration COPY_TIMEOUT = Duration.ofMinutes(5);
  private static final Duration START_TIMEOUT =
      Duration.ofSeconds(RemoteScripts.START_WAIT_SECONDS + 30);
  private static final Duration STOP_TIMEOUT =
      Duration.ofSeconds(RemoteScripts.STOP_WAIT_SECONDS + 30);
  private static final Duration ANSWER_TIMEOUT = Duration.ofSeconds(30);

  private final SshClient ssh;

  public AgentLauncher(SshClient ssh) {
    this.ssh = ssh;
  }

  /** Per node, the launched agent or the reason it failed, in the order given. */
  public record Outcome<T>(Map<String, T> done, Map<String, String> failed) {
    public boolean ok() {
      return failed.isEmpty();
    }
  }

  /**
   * Launches each spec's agent: from {@code jar} where the node's java is 17 or newer, else from
   * {@code tarball} (empty: such a node fails, saying why).
   */
  public Outcome<LaunchedAgent> launch(
      List<LaunchSpec> specs, AgentJar jar, Optional<AgentTarball> tarball) {
    return forEach(
        specs.stream().map(AgentLauncher::label).toList(), specs, s -> launchOne(s, jar, tarball));
  }

  /**
   * Stops every agent launched into {@code remoteDir} on each target; the value says what happened.
   */
  public Outcome<String> stop(List<SshTarget> targets, String remoteDir) {
    return forEach(
        targets.stream().map(SshTarget::spec).toList(), targets, t -> stopOne(t, remoteDir));
  }

  /** How a launch is named in messages: the target, and the node name when one is given. */
  public static String label(LaunchSpec s) {
    return s.name() == null || s.name().equals(s.target().host())
        ? s.target().spec()
        : s.target().spec() + " (" + s.name() + ")";
  }

  private LaunchedAgent launchOne(LaunchSpec spec, AgentJar jar, Optional<AgentTarball> tarball) {
    SshTarget t = spec.target();
    String host = spec.agentHost() != null ? spec.agentHost() : ssh.resolveHost(t);
    String bundleName = tarball.map(AgentTarball::remoteName).orElse("");
    RemoteProbe probe =
        RemoteProbe.parse(
            expect(
                    t,
                    "reach it over ssh",
                    ssh.runScript(
                        t,
                        RemoteScripts.probe(
                            spec.remoteDir(), jar.remoteName(), bundleName, spec.java()),
                        SSH_TIMEOUT))
                .stdout());
    String bundle = null;
    String uploaded = null;
    if (probe.javaSuitable()) {
      if (!probe.jarPresent()) {
        uploaded = jar.remoteName() + ".part-" + UUID.randomUUID().toString().substring(0, 8);
        expect(
            t,
            "copy the agent jar",
            ssh.copy(jar.path(), t, spec.remoteDir() + "/" + uploaded, COPY_TIMEOUT));
      }
    } else {
      AgentTarball bundled =
          tarball.orElseThrow(
              () ->
                  new LaunchException(
                      t
                          + ": "
                          + probe.whyNoJava(spec.java())
                          + ", and there is no agent tarball to bring a runtime: build it (mvn -B"
                          + " package -Pdist) or give --agent-tarball FILE, or --java PATH"));
      bundle = bundled.remoteName();
      if (!probe.bundlePresent()) {
        uploaded = bundle + ".tar.gz.part-" + UUID.randomUUID().toString().substring(0, 8);
        expect(
            t,
            "copy the agent tarball",
            ssh.copy(bundled.path(), t, spec.remoteDir() + "/" + uploaded, COPY_TIMEOUT));
      }
    }
    SshClient.Result started =
        expect(
            t,
            "start the agent",
            ssh.runScript(
                t, RemoteScripts.start(spec, jar.remoteName(), bundle, uploaded), START_TIMEOUT));
    long pid = Long.parseLong(field(started.stdout(), "PID"));
    String log = field(started.stdout(), "LOG");
    var bound =
        ListeningLine.parse(field(started.stdout(), "OK"))
            .orElseThrow(
                () ->
                    new LaunchException(
                        t
                            + ": the agent's start line is not understood: "
                            + started.stdout().strip()));
    String address = (host.contains(":") ? "[" + host + "]" : host) + ":" + bound.port();
    DescribeResponse d = awaitAnswer(t, address, log);
    return new LaunchedAgent(t, address, pid, d.getNodeName(), log, bundle != null);
  }

  /**
   * Waits for the agent's health service to report SERVING (gRPC waits for the connection,
   * bounded), then describes it.
   */
  private static DescribeResponse awaitAnswer(SshTarget t, String address, String log) {
    try {
      return GrpcAgent.awaitServing(address, ANSWER_TIMEOUT);
    } catch (AgentCallException e) {
      throw new LaunchException(
          t
              + ": the agent started (log "
              + log
              + ") but does not answer at "
              + address
              + " within "
              + ANSWER_TIMEOUT.toSeconds()
              + " s: "
              + e.getMessage()
              + " (firewall? another --agent-host?)");
    }
  }

  private String stopOne(SshTarget t, String remoteDir) {
    SshClient.Result r =
        expect(t, "stop the agent", ssh.runScript(t, RemoteScripts.stop(remoteDir), STOP_TIMEOUT));
    List<String> said = new ArrayList<>();
    for (String line : r.stdout().lines().toList()) {
      String[] w = line.strip().split(" ", 2);
      switch (w[0]) {
        case "STOPPED" -> said.add("stopped agent pid " + w[1]);
        case "KILLED" ->
            said.add(
                "killed agent pid "
                    + w[1]
                    + " (it did not exit within "
                    + RemoteScripts.STOP_WAIT_SECONDS
                    + " s of SIGTERM)");
        case "GONE" -> said.add("agent pid " + w[1] + " was no longer running");
        case "NONE" -> said.add("no agent launched by lockstep is running there");
        default -> {}
      }
    }
    return String.join("; ", said);
  }

  private static SshClient.Result expect(SshTarget t, String what, SshClient.Result r) {
    if (r.ok()) {
      return r;
    }
    String err =
        r.stdout()
            .lines()
            .filter(l -> l.startsWith("ERR "))
            .map(l -> l.substring(4))
            .findFirst()
            .orElse(null);
    if (err != null) {
      throw new LaunchException(t + ": " + err);
    }
    throw new LaunchException(t + ": cannot " + what + ": " + r.lastLine());
  }

  private static String field(String out, String key) {
    return out.lines()
        .filter(l -> l.startsWith(key + " "))
        .map(l -> l.substring(key.length() + 1).strip())
        .findFirst()
        .orElseThrow(
            () -> new LaunchException("unexpected answer from the start script: " + out.strip()));
  }

  private static <I, T> Outcome<T> forEach(
      List<String> labels, List<I> items, Function<I, T> work) {
    ExecutorService pool =
        Executors.newFixedThreadPool(
            Math.min(16, Math.max(1, items.size())), DaemonThreads.named("ssh"));
    try {
      List<Future<T>> futures = items.stream().map(i -> pool.submit(() -> work.apply(i))).toList();
      Map<String, T> done = new LinkedHashMap<>();
      Map<String, String> failed = new LinkedHashMap<>();
      for (int i = 0; i < futures.size(); i++) {
        try {
          done.put(labels.get(i), futures.get(i).get());
        } catch (ExecutionException e) {
          Throwable c = e.getCause();
          failed.put(
              labels.get(i),
              c instanceof LaunchException ? c.getMessage() : labels.get(i) + ": " + c);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          failed.put(labels.get(i), labels.get(i) + ": interrupted");
        }
      }
      return new Outcome<>(done, failed);
    } finally {
      pool.shutdownNow();
    }
  }
}
