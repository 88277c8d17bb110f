package lockstep.lab;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;

/**
 * Deploys the guests' agents the way users do: certificates from {@code lockstep certs --inventory}
 * (once per lab), then the project's playbook deploy/ansible/site.yml over ssh from inside the
 * lab's namespace, which installs the agent's .deb (its own runtime, not the guest's Java) and the
 * package's systemd unit with mTLS, one agent per guest with a root on every stack that is up
 * ({@link LabAgent}); then {@code lockstep agents --inventory} of each stack must see them answer.
 */
record AgentDeploy(LabPaths paths, LabFiles files, Commands commands, LabLog log) {
  // a first deploy on three emulated guests took 582 s; `lab deploy` of a new package over
  // running agents, whose settings changed too, restarts them twice (the package's upgrade, then
  // the role's handler) and ran past 15 minutes
  private static final Duration ANSIBLE_TIMEOUT = Duration.ofMinutes(30);

  /**
   * The agents' JVM in the guests: C1 only and the serial collector. The agent is the control plane
   * (the measured loops run in worker JVMs that choose their own compiler); on a guest's one
   * emulated CPU its start with mTLS took 64 s with C2's compiler threads beside it and 36 s
   * without, and each deploy, setting change and node recovery waits for that start.
   */
  static final String AGENT_JAVA_OPTS = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC";

  /**
   * The agents' options in the guests: two spare workers ({@code --spare-workers}). A worker JVM's
   * start took 17-60 s of each step's prepare on the emulated guests; with spares started in the
   * step before, a prepare hands them their tasks. Two cover the lab's workloads (one or two
   * processes a node).
   */
  static final String AGENT_OPTS = "--spare-workers 2";

  /**
   * The workers' JVMs in the guests compile at C1's usual thresholds, not a tenth of them: a worker
   * JVM's load on an idle emulated guest took a median of 20.2 s (17.8-20.2, three) with a tenth,
   * 13.6 s (12.5-14.7) without, as the compiler no longer takes the one vCPU for code that runs a
   * few times while the JVM loads. The lab's loops still reach the thresholds in their warm-up, or
   * run too slowly (GFS2's 100 locks/s) for a compile to show.
   */
  static final String WORKER_JAVA_OPTS = "-XX:CompileThresholdScaling=1";

  /**
   * The CPUs of a guest with more than one the agent and its workers run on (systemd CPUAffinity=,
   * through the playbook's lockstep_cpu_affinity): the last one (the cluster's daemons stay free to
   * use all). Under multi-threaded TCG a JVM whose threads ran on two vCPUs died twice in ten
   * starts (SIGSEGV, SIGILL in C1 code just patched: the JIT changes code that another emulated
   * vCPU is running, which TCG does not make safe); on one vCPU the JIT's writes and the code's
   * execution stay on one emulated CPU. Empty for one vCPU.
   */
  static String agentCpus(int cpus) {
    return cpus > 1 ? Integer.toString(cpus - 1) : "";
  }

  /**
   * The guests' agents for {@code added} stacks, just up, in one playbook pass: each node's agent
   * with a root on every stack of {@code state} (those up before too, whose agent restarts with the
   * new root), then each stack's agents answering.
   */
  void deploy(List<Stack> added, LabState state) {
    if (added.isEmpty()) {
      return;
    }
    List<Stack> stacks = state.upStacks();
    certificates(write("nodes.yaml", LabInventory.nodes(state.nodes())));
    double t0 = log.seconds();
    String words = String.join(" and ", stacks.stream().map(Stack::word).toList());
    List<LabNode> watchers =
        stacks.stream().flatMap(s -> s.watchers(state).stream()).distinct().toList();
    log.say(
        "deploying the agents with ansible-playbook deploy/ansible/site.yml (unit "
            + LabAgent.SERVICE
            + ", roots on "
            + words
            + (watchers.isEmpty()
                ? ""
                : "; watch-only on " + StackUp.names(watchers) + ", root " + Stack.WATCH_ROOT)
            + ") ...");
    // the clients' and the servers' agents differ in their roots only: one playbook each, at once
    List<List<String>> playbooks = new ArrayList<>();
    playbooks.add(
        ansible(
            clientServices(stacks),
            write("deploy-clients.yaml", LabInventory.nodes(state.clients())),
            Path.of(state.sshKey()),
            state.cpus()));
    if (!watchers.isEmpty()) {
      playbooks.add(
          ansible(
              watchService(),
              write("deploy-watchers.yaml", LabInventory.nodes(watchers)),
              Path.of(state.sshKey()),
              state.cpus()));
    }
    Parallel.each(
        playbooks,
        c ->
            commands
                .run(
                    Netns.exec(state.namespace(), c),
                    "",
                    ANSIBLE_TIMEOUT,
                    files.repo(),
                    ansibleEnv(Path.of(state.sshKey()), paths.knownHosts(), paths.dir()))
                .orThrow("ansible-playbook (log: " + log.file() + ")"));
    log.say(
        String.format(
            Locale.ROOT, "%s agents installed and started (%.0f s)", words, log.seconds() - t0));
    answerAll(state);
  }

  /** An inventory file of the lab's own, for the deploy (not one a user runs with). */
  private Path write(String name, String yaml) {
    Path p = paths.dir().resolve(name);
    try {
      Files.writeString(p, yaml);
    } catch (IOException e) {
      throw new LabException("cannot write " + p + ": " + e.getMessage());
    }
    return p;
  }

  /**
   * Each stack's agents answering ({@link #answer}), every stack asked at once: each ask is a
   * coordinator JVM on the host that mostly waits for the guests' first TLS handshakes.
   */
  void answerAll(LabState state) {
    Parallel.each(
        state.upStacks(),
        s -> {
          answer(s, state);
          return s;
        });
  }

  /** The lab's CA and a certificate per node, once per lab (every stack's nodes are the same). */
  private void certificates(Path inventory) {
    if (Files.isRegularFile(paths.certs().resolve("ca.pem"))) {
      return;
    }
    commands
        .run(
            files.lockstep(
                List.of(
                    "certs",
                    "--inventory",
                    inventory.toString(),
                    "--out",
                    paths.certs().toString())),
            Duration.ofMinutes(2))
        .orThrow("lockstep certs --inventory " + inventory);
    log.say("certificates made by lockstep certs --inventory in " + paths.certs());
  }

  /**
   * How long a stack's agents get to answer after their start. A recovered guest starts both
   * stacks' agent JVMs and their rehearsal steps beside its cluster's rejoin: under emulation its
   * OCFS2 agent missed four 20 s describes in a row (CI, 2026-12-06), and the recovery failed.
   */
  static final Duration ANSWER_BOUND = Duration.ofMinutes(6);

  private static final Duration POLL = Duration.ofSeconds(5);

  /**
   * {@code lockstep agents --inventory} inside the namespace until every agent answers over mTLS,
   * tried again until {@link #ANSWER_BOUND} (a just-started agent's first answers are slow under
   * emulation).
   */
  void answer(Stack s, LabState state) {
    Path inv = paths.inventory(s);
    long end = System.nanoTime() + ANSWER_BOUND.toNanos();
    Commands.Result r;
    do {
      long attempt = System.nanoTime();
      r =
          commands.run(
              Netns.exec(
                  state.namespace(),
                  files.lockstep(List.of("agents", "--inventory", inv.toString()))),
              "",
              Duration.ofMinutes(2),
              null);
      if (r.ok()) {
        r.stdout().lines().forEach(l -> log.say("  " + l));
        return;
      }
      // a refused connection fails at once: poll, do not spin JVMs beside the guests; an ask that
      // took longer (a first TLS handshake past its 10 s) is tried again at once
      LockSupport.parkNanos(POLL.toNanos() - (System.nanoTime() - attempt));
    } while (System.nanoTime() < end);
    throw new LabException(
        "the "
            + s.word()
            + " agents do not answer over mTLS within "
            + ANSWER_BOUND.toMinutes()
            + " min: "
            + r.lastLine());
  }

  /**
   * The clients' one agent service (lockstep_services: its unit, port, first root and mount point,
   * more_roots: the other stacks').
   */
  static String clientServices(List<Stack> stacks) {
    // the unit starts only on mounted file systems: at a guest's boot (a node recovered after a
    // fault) it would start on the bare mount points, a JVM start beside the boot and the
    // cluster's join, only to be stopped until the file systems are mounted
    Stack first = stacks.get(0);
    String more =
        String.join(
            ", ",
            stacks.subList(1, stacks.size()).stream()
                .map(
                    s ->
                        String.format(
                            Locale.ROOT,
                            "{\"root\": \"%s\", \"mount_point\": \"%s\"}",
                            s.agentRoot(),
                            s.mountPoint()))
                .toList());
    return service(first.agentRoot(), first.mountPoint(), more);
  }

  /** A server's watch-only agent: its root beside what it exports, on the same disk. */
  static String watchService() {
    return service(Stack.WATCH_ROOT, Stack.WATCH_MOUNT_POINT, "");
  }

  private static String service(String root, String mountPoint, String moreRoots) {
    return String.format(
        Locale.ROOT,
        "{\"service\": \"%s\", \"root\": \"%s\", \"listen\": \"0.0.0.0:%d\","
            + " \"root_mount_point\": \"%s\", \"more_roots\": [%s]}",
        LabAgent.SERVICE,
        root,
        LabAgent.GUEST_PORT,
        mountPoint,
        moreRoots);
  }

  /** The playbook over {@code inventory}'s nodes, each with the agent service {@code services}. */
  List<String> ansible(String services, Path inventory, Path sshKey, int cpus) {
    List<String> c = new ArrayList<>(List.of("ansible-playbook", files.playbook().toString()));
    c.addAll(List.of("-e", "lockstep_inventory=" + inventory));
    c.addAll(List.of("-e", "lockstep_tls_dir=" + paths.certs()));
    c.addAll(List.of("-e", "lockstep_agent_package=" + files.agentPackage()));
    c.addAll(
        List.of(
            "-e",
            "{\"lockstep_services\": ["
                + services
                + "], \"lockstep_java_opts\": \""
                + AGENT_JAVA_OPTS
                + "\", \"lockstep_agent_opts\": \""
                + AGENT_OPTS
                + "\", \"lockstep_worker_java_opts\": \""
                + WORKER_JAVA_OPTS
                + "\", \"lockstep_cpu_affinity\": \""
                + agentCpus(cpus)
                + "\"}"));
    c.addAll(List.of("--private-key", sshKey.toString()));
    return c;
  }

  /**
   * Ansible's ssh: the lab's strict known_hosts, one connection per guest kept open (every task
   * over it) and pipelining; the minimal facts (the role needs os_family, not the hardware's). Each
   * saves seconds per task on emulated guests.
   */
  static Map<String, String> ansibleEnv(Path sshKey, Path knownHosts, Path labDir) {
    List<String> opts = new ArrayList<>(Guests.sshOptions(sshKey, knownHosts));
    opts.addAll(
        List.of(
            "-o", "ControlMaster=auto",
            "-o", "ControlPersist=300s",
            "-o", "ControlPath=" + labDir.resolve("ssh-%C")));
    return Map.ofEntries(
        Map.entry("ANSIBLE_GATHER_SUBSET", "min"),
        // each task's time in lab.log
        Map.entry("ANSIBLE_CALLBACKS_ENABLED", "ansible.posix.profile_tasks"),
        Map.entry("ANSIBLE_SSH_ARGS", String.join(" ", opts)),
        Map.entry("ANSIBLE_PIPELINING", "True"),
        Map.entry("ANSIBLE_HOST_KEY_CHECKING", "True"),
        Map.entry("ANSIBLE_RETRY_FILES_ENABLED", "False"),
        Map.entry("ANSIBLE_NOCOLOR", "1"),
        Map.entry("ANSIBLE_PYTHON_INTERPRETER", "/usr/bin/python3"),
        Map.entry("ANSIBLE_SSH_TIMEOUT", "30"),
        Map.entry("ANSIBLE_SSH_RETRIES", "3"));
  }
}
