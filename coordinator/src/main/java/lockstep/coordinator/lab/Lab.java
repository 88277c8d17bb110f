package lockstep.coordinator.lab;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import lockstep.coordinator.fault.FaultInjector;

/**
 * {@code lockstep lab}: a two-node cluster of QEMU guests on this machine (both QEMUs and the
 * storage daemon in a network namespace of the lab's own), GFS2 and/or OCFS2 on shared disks,
 * agents deployed with the project's Ansible playbook and systemd unit, mTLS from {@code lockstep
 * certs}. The command line only parses into a {@link LabConfig}; everything happens here.
 */
public final class Lab {
  static final Duration BOOT_TIMEOUT = Duration.ofMinutes(10);
  static final Duration STEP_TIMEOUT = Duration.ofMinutes(3);

  /** An agent's start, up to listening (lab-node.sh agent-start waits 270 s for it). */
  static final Duration AGENT_START_TIMEOUT = Duration.ofMinutes(5);

  static final long SHARED_DISK_BYTES = 2L << 30;
  static final long PRIVATE_DISK_BYTES = 1L << 30;

  private final LabConfig config;
  private final PrintStream out;
  private final LabPaths paths;
  private final LabLog log;
  private final Commands commands;

  public Lab(LabConfig config, PrintStream out) {
    this.config = config;
    this.out = out;
    this.paths = new LabPaths(config.dir());
    this.log = new LabLog(out, config.dir().resolve("lab.log"));
    this.commands = new Commands(log);
  }

  /** Builds the guest image unless the cache has it; returns it. */
  public GuestImage image() {
    HostCheck.root("image");
    HostCheck.programs(HostCheck.BUILD, HostCheck.systemPath());
    return new ImageBuilder(config.cache(), LabFiles.locate(), commands, log).ensure();
  }

  /**
   * Boots the lab unless it is up, then brings up each stack not yet up and deploys its agents. If
   * this call booted the lab and fails or is interrupted, everything it made is removed.
   */
  public void up(List<Stack> stacks) {
    HostCheck.root("up");
    HostCheck.programs(HostCheck.RUN, HostCheck.systemPath());
    LabFiles files = LabFiles.locate();
    try (FileLock lock = lock()) {
      Optional<LabState> existing = LabState.read(paths.state());
      Teardown teardown = new Teardown(paths, commands, log);
      if (existing.isPresent() && leftBehind(existing.get(), config.dir())) {
        teardown.run(
            "the lab in "
                + config.dir()
                + " was left behind (none of its processes runs: a reboot, or a killed lab);"
                + " removing what is left of it, then booting afresh");
        existing = Optional.empty();
      }
      Thread hook = new Thread(() -> teardown.run("interrupted: removing what this `up` made"));
      boolean booting = existing.isEmpty();
      if (booting) {
        Runtime.getRuntime().addShutdownHook(hook);
      }
      try {
        LabState state = booting ? boot(files) : alive(existing.get());
        for (Stack s : stacks) {
          if (state.has(s)) {
            log.say(s.word() + " is up already");
            continue;
          }
          state = new StackUp(paths, guests(state, files), log).up(s, state);
          state.write(paths.state());
          writeInventories(state);
          new AgentDeploy(paths, files, commands, log).deploy(s, state);
        }
        teardown.disarm();
        printHowTo(state, stacks, files);
      } catch (RuntimeException e) {
        if (booting) {
          log.say("up failed: " + e.getMessage());
          teardown.run("removing what this `up` made");
        } else {
          log.say("up failed; the lab stays as it was (lockstep lab down removes it)");
        }
        throw e;
      } finally {
        if (booting) {
          try {
            Runtime.getRuntime().removeShutdownHook(hook);
          } catch (IllegalStateException e) {
            // the JVM is shutting down: the hook is running
          }
        }
      }
    } catch (IOException e) {
      throw new LabException("cannot lock " + config.dir() + ": " + e.getMessage());
    }
  }

  private LabState boot(LabFiles files) throws IOException {
    Files.createDirectories(config.dir());
    GuestImage image = new ImageBuilder(config.cache(), files, commands, log).ensure();
    Accelerator accel = Accelerator.choose(config.accel());
    log.say("accelerator " + accel.name() + ": " + accel.why());
    Map<String, String> settings = new LinkedHashMap<>();
    settings.put(LabSetting.DISK_MBPS.key(), Integer.toString(config.diskMbps()));
    settings.put(LabSetting.PLOCK_RATE_LIMIT.key(), Integer.toString(config.plockRateLimit()));
    settings.put(LabSetting.PLOCK_OWNERSHIP.key(), Integer.toString(config.plockOwnership()));
    settings.put(
        LabSetting.LOCALALLOC.key(),
        config.localallocMb() == null ? "default" : Integer.toString(config.localallocMb()));
    LabState state =
        new LabState(
            Netns.nameFor(config.dir()),
            image.dir().toString(),
            image.sshKey().toString(),
            accel.name(),
            accel.why(),
            config.memoryMib(),
            config.cpus(),
            Map.of(),
            List.of(),
            settings,
            Instant.now().toString());
    state.write(paths.state());
    Netns ns = new Netns(state.namespace(), commands);
    ns.create();
    for (LabNode n : LabNode.all()) {
      Files.deleteIfExists(paths.overlay(n));
      commands
          .run(
              List.of(
                  "qemu-img",
                  "create",
                  "-q",
                  "-f",
                  "qcow2",
                  "-b",
                  image.root().toString(),
                  "-F",
                  "raw",
                  paths.overlay(n).toString()),
              Duration.ofSeconds(30))
          .orThrow("qemu-img create");
      sparse(paths.disk(n.privateExport()), PRIVATE_DISK_BYTES);
    }
    for (Stack s : Stack.values()) {
      sparse(paths.disk(s.word()), SHARED_DISK_BYTES);
    }
    String hostKey = Files.readString(image.hostKey()).strip();
    StringBuilder kh = new StringBuilder();
    for (LabNode n : LabNode.all()) {
      kh.append("[127.0.0.1]:").append(n.sshPort()).append(' ').append(hostKey).append('\n');
    }
    Files.writeString(paths.knownHosts(), kh);

    Files.deleteIfExists(paths.storagePidFile());
    commands
        .run(
            ns.exec(QemuCommand.storageDaemon(paths, config.diskMbps() * 1_000_000L)),
            Duration.ofSeconds(30))
        .orThrow("qemu-storage-daemon");
    state =
        state.withPid(
            "storage", LabProcesses.readPidFile(paths.storagePidFile(), Duration.ofSeconds(10)));
    state.write(paths.state());
    for (LabNode n : LabNode.all()) {
      Files.deleteIfExists(paths.pidFile(n));
      commands
          .run(
              ns.exec(QemuCommand.guest(n, image, paths, accel, config.memoryMib(), config.cpus())),
              Duration.ofSeconds(60))
          .orThrow("qemu-system-x86_64 (" + n.name() + ")");
      state =
          state.withPid(
              n.name(), LabProcesses.readPidFile(paths.pidFile(n), Duration.ofSeconds(10)));
      state.write(paths.state());
    }
    log.say(
        "QEMU started: node1 pid "
            + state.pids().get("node1")
            + ", node2 pid "
            + state.pids().get("node2")
            + ", storage daemon pid "
            + state.pids().get("storage")
            + " (namespace "
            + state.namespace()
            + ", "
            + accel.name()
            + ")");
    Guests g = guests(state, files);
    waitForSsh(g, state);
    for (var e :
        g.both(BOOT_TIMEOUT, "boot-ready", Long.toString(BOOT_TIMEOUT.toSeconds())).entrySet()) {
      log.say(e.getValue().strip());
    }
    g.both(STEP_TIMEOUT, "priv-up");
    log.say("private ext4 disks on /mnt/priv of both nodes (" + config.diskMbps() + " MB/s each)");
    return state;
  }

  private void waitForSsh(Guests g, LabState state) {
    long end = System.nanoTime() + BOOT_TIMEOUT.toNanos();
    for (LabNode n : LabNode.all()) {
      // slirp accepts the TCP connection before sshd is up: each try has its own bound
      while (!g.answers(n)) {
        checkAlive(state, n);
        if (System.nanoTime() > end) {
          throw new LabException(
              n.name()
                  + ": no ssh within "
                  + BOOT_TIMEOUT.toSeconds()
                  + " s; its console is "
                  + paths.console(n));
        }
        LabProcesses.sleepMillis(1000);
      }
      log.say(n.name() + ": ssh answers");
    }
  }

  private void checkAlive(LabState state, LabNode n) {
    Long pid = state.pids().get(n.name());
    if (pid == null || LabProcesses.ours(pid, config.dir()).isEmpty()) {
      throw new LabException(
          n.name()
              + ": QEMU has exited; its console is "
              + paths.console(n)
              + " (last line: "
              + lastLine(paths.console(n))
              + ")");
    }
  }

  /**
   * Whether a lab's state file outlived all its processes (the host rebooted, or they were killed):
   * then {@code up} removes its remains and boots again, where a lab with only some of its
   * processes gone is broken and stays for {@code down}.
   */
  static boolean leftBehind(LabState state, Path dir) {
    return state.pids().values().stream().allMatch(pid -> LabProcesses.ours(pid, dir).isEmpty());
  }

  /** The state of a lab that is up; every process of it must still run. */
  private LabState alive(LabState state) {
    for (var e : state.pids().entrySet()) {
      if (LabProcesses.ours(e.getValue(), config.dir()).isEmpty()) {
        throw new LabException(
            "the lab is broken: "
                + e.getKey()
                + " (pid "
                + e.getValue()
                + ") is gone; run lockstep lab down, then up again");
      }
    }
    return state;
  }

  private LabState upState() {
    return LabState.read(paths.state())
        .orElseThrow(
            () ->
                new LabException(
                    "no lab is up in " + config.dir() + " (lockstep lab up gfs2|ocfs2)"));
  }

  /**
   * Deploys the agents of the stacks that are up again, with the agent jar as it is now (the
   * playbook copies it and restarts the agents when it changed), and waits until they answer.
   */
  public void deploy(List<Stack> stacks) {
    HostCheck.root("deploy");
    HostCheck.programs(HostCheck.RUN, HostCheck.systemPath());
    LabFiles files = LabFiles.locate();
    try (FileLock lock = lock()) {
      LabState state = upState();
      List<Stack> which =
          stacks.isEmpty() ? state.stacks().stream().map(Stack::parse).toList() : stacks;
      for (Stack s : which) {
        if (!state.has(s)) {
          throw new LabException(s.word() + " is not up (lockstep lab up " + s.word() + ")");
        }
        new AgentDeploy(paths, files, commands, log).deploy(s, state);
      }
    } catch (IOException e) {
      throw new LabException("cannot lock " + config.dir() + ": " + e.getMessage());
    }
  }

  /** Stops every QEMU and the storage daemon, removes the namespace and the lab's disks. */
  public void down() {
    HostCheck.root("down");
    if (!Files.isDirectory(config.dir())
        && !new Netns(Netns.nameFor(config.dir()), commands).exists()) {
      out.println("lab: nothing to remove in " + config.dir() + " (no lab is up)");
      return;
    }
    try (FileLock lock = lock()) {
      Optional<LabState> state = LabState.read(paths.state());
      if (state.isEmpty() && !new Netns(Netns.nameFor(config.dir()), commands).exists()) {
        out.println("lab: nothing to remove in " + config.dir() + " (no lab is up)");
        return;
      }
      new Teardown(paths, commands, log).run("lab down");
    } catch (IOException e) {
      throw new LabException("cannot lock " + config.dir() + ": " + e.getMessage());
    }
  }

  /** What is up, its settings, and what each guest says of its cluster. */
  public void status() {
    HostCheck.root("status");
    LabState state = upState();
    out.printf(
        "lab in %s: accelerator %s (%s), booted %s, namespace %s%n",
        config.dir(), state.accel(), state.accelWhy(), state.bootedAt(), state.namespace());
    for (var e : new TreeMap<>(state.pids()).entrySet()) {
      boolean up = LabProcesses.ours(e.getValue(), config.dir()).isPresent();
      out.printf("  %-8s pid %-8d %s%n", e.getKey(), e.getValue(), up ? "running" : "GONE");
    }
    out.println(
        "  stacks: " + (state.stacks().isEmpty() ? "none" : String.join(", ", state.stacks())));
    out.println("  settings: " + new TreeMap<>(state.settings()));
    for (String s : state.stacks()) {
      out.println("  inventory " + s + ": " + paths.inventory(Stack.parse(s)));
    }
    Guests g = guests(state, LabFiles.locate());
    for (LabNode n : LabNode.all()) {
      Commands.Result r = g.step(n, Duration.ofSeconds(60), "describe");
      out.print(r.ok() ? r.stdout().indent(2) : "  " + n.name() + ": " + r.lastLine() + "\n");
    }
  }

  /** Applies each KEY=VALUE on every node (or the storage daemon), then rewrites inventories. */
  public void set(List<LabSetting.Change> changes) {
    HostCheck.root("set");
    upState();
    try (FileLock lock = lock()) {
      LabState state = alive(upState());
      LabFiles files = LabFiles.locate();
      for (LabSetting.Change c : changes) {
        Stack need = c.setting().stack();
        if (need != null && !state.has(need)) {
          throw new LabException(
              "set "
                  + c.setting().key()
                  + ": "
                  + need.word()
                  + " is not up (lockstep lab up "
                  + need.word()
                  + ")");
        }
      }
      AgentDeploy deploy = new AgentDeploy(paths, files, commands, log);
      StackUp stacks =
          new StackUp(paths, guests(state, files), log).whenAgentsRestart(deploy::answer);
      for (LabSetting.Change c : changes) {
        state = stacks.set(c, state);
        state.write(paths.state());
        log.say("set " + c.setting().key() + "=" + c.value());
      }
      writeInventories(state);
    } catch (IOException e) {
      throw new LabException("cannot lock " + config.dir() + ": " + e.getMessage());
    }
  }

  /** The stack a run goes to: the one asked for, else the only one up. */
  public Stack stackFor(Stack asked) {
    LabState state = upState();
    if (asked != null) {
      if (!state.has(asked)) {
        throw new LabException(asked.word() + " is not up (lockstep lab up " + asked.word() + ")");
      }
      return asked;
    }
    if (state.stacks().size() != 1) {
      throw new LabException(
          state.stacks().isEmpty()
              ? "no stack is up (lockstep lab up gfs2|ocfs2)"
              : "both stacks are up: say which with --stack gfs2|ocfs2");
    }
    return Stack.parse(state.stacks().get(0));
  }

  /**
   * The coordinator ({@code lockstep ARGS... --inventory INV}) inside the lab's namespace, its
   * output on this terminal; returns its exit code.
   */
  /**
   * {@code lockstep run SCENARIO OPTIONS} on a stack, with the lease emulated guests need unless
   * the options set one ({@link Accelerator#runOptions}).
   */
  public int run(Stack stack, String scenario, List<String> options) {
    List<String> args = new ArrayList<>(List.of("run", scenario));
    args.addAll(Accelerator.runOptions(alive(upState()).accel(), options));
    return coordinator(stack, args);
  }

  public int coordinator(Stack stack, List<String> args) {
    HostCheck.root("run");
    LabState state = alive(upState());
    LabFiles files = LabFiles.locate();
    List<String> cmd = new ArrayList<>(List.of("java", "-jar", files.coordinatorJar().toString()));
    cmd.addAll(args);
    cmd.addAll(List.of("--inventory", paths.inventory(stack).toString()));
    List<String> full = Netns.exec(state.namespace(), cmd);
    out.println("lab: $ " + String.join(" ", full));
    out.flush();
    try {
      // On a terminal the child has it (its live progress line needs a console); elsewhere its
      // output is copied through this JVM's streams, so that where they are captured (a test's
      // log) the run's own words are captured with them.
      if (out == System.out && System.console() != null) {
        return new ProcessBuilder(full).inheritIO().start().waitFor();
      }
      Process p = new ProcessBuilder(full).redirectInput(ProcessBuilder.Redirect.INHERIT).start();
      Thread copyOut = StreamCopy.start(p.getInputStream(), out);
      Thread copyErr = StreamCopy.start(p.getErrorStream(), System.err);
      int code = p.waitFor();
      copyOut.join();
      copyErr.join();
      return code;
    } catch (IOException e) {
      throw new LabException("cannot run java: " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new LabException("interrupted");
    }
  }

  /**
   * ssh into a guest as root: a shell on this terminal, or the command, its output printed here;
   * returns ssh's exit code.
   */
  /** What carries out a scenario's faults on this lab's guests ({@code lockstep run} on it). */
  public FaultInjector faults() {
    return new LabFaults(this, paths);
  }

  /** The lab's state as written (its processes need not all run: a fault may have killed one). */
  LabState current() {
    return upState();
  }

  /** A fault's victim back as a healthy cluster member; returns what was done, in one line. */
  public String recover(String node) {
    return recover(LabNode.named(node));
  }

  String recover(LabNode n) {
    HostCheck.root("recover");
    double t0 = log.seconds();
    LabState state = upState();
    LabFiles files = LabFiles.locate();
    new NodeRecovery(paths, commands, log, files).recover(n, state, guests(state, files));
    return String.format(
        Locale.ROOT,
        "restarted, rejoined %s and remounted, agents answering, in %.0f s",
        String.join(" and ", state.stacks()),
        log.seconds() - t0);
  }

  /**
   * Whether the cluster has written {@code n} off while it was frozen or cut off for {@code
   * forMillis}: silent for longer than corosync's token timeout (GFS2; the lab keeps corosync's
   * default, 3000 ms, after which the others form a membership without it) or o2net's idle timeout
   * (OCFS2, 30 s). Decided from the timeouts, not by asking a survivor, so that the fault ends at
   * its time (an ssh round under emulation takes seconds). Null when it is still a member of every
   * stack that is up, else why not.
   */
  String writtenOff(LabNode n, long forMillis) {
    LabState state = upState();
    if (state.has(Stack.GFS2) && forMillis >= COROSYNC_TOKEN_MILLIS) {
      return n.name()
          + " was silent for longer than corosync's token timeout ("
          + COROSYNC_TOKEN_MILLIS
          + " ms), so the others formed a membership without it";
    }
    if (state.has(Stack.OCFS2) && forMillis >= O2NET_IDLE_MILLIS) {
      return "o2net drops a node silent for " + O2NET_IDLE_MILLIS / 1000 + " s";
    }
    return null;
  }

  /** corosync's default token timeout (the lab's corosync.conf sets none). */
  static final long COROSYNC_TOKEN_MILLIS = 3_000;

  /** o2cb's default network idle timeout, which the lab keeps. */
  static final long O2NET_IDLE_MILLIS = 30_000;

  /** The node name {@link #ssh} takes for both guests at once. */
  public static final String ALL_NODES = "all";

  public int ssh(String node, List<String> command) {
    HostCheck.root("ssh");
    LabState state = alive(upState());
    Guests g = guests(state, LabFiles.locate());
    if (ALL_NODES.equals(node)) {
      return sshAll(g, command);
    }
    LabNode n = LabNode.named(node);
    try {
      if (command.isEmpty()) {
        return new ProcessBuilder(g.ssh(n, List.of("-t"))).inheritIO().start().waitFor();
      }
      Commands.Result r =
          commands.run(g.ssh(n, List.of(String.join(" ", command))), "", Duration.ofHours(1), null);
      out.print(r.stdout());
      out.flush();
      System.err.print(r.stderr());
      return r.exitCode();
    } catch (IOException e) {
      throw new LabException("cannot run ssh: " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new LabException("interrupted");
    }
  }

  /**
   * The command on both guests at once (a peer run "together": {@code lab ssh all dd ...}), each
   * line of output prefixed with its node; the exit code is the first non-zero one.
   */
  private int sshAll(Guests g, List<String> command) {
    if (command.isEmpty()) {
      throw new LabException("lab ssh all needs a COMMAND (a shell is one node's: node1 or node2)");
    }
    List<LabNode> nodes = LabNode.all();
    ExecutorService pool = Executors.newFixedThreadPool(nodes.size());
    int rc = 0;
    try {
      List<CompletableFuture<Commands.Result>> runs = new ArrayList<>();
      for (LabNode n : nodes) {
        List<String> ssh = g.ssh(n, List.of(String.join(" ", command)));
        runs.add(
            CompletableFuture.supplyAsync(
                () -> commands.run(ssh, "", Duration.ofHours(1), null), pool));
      }
      for (int i = 0; i < nodes.size(); i++) {
        Commands.Result r;
        try {
          r = runs.get(i).join();
        } catch (CompletionException e) {
          throw e.getCause() instanceof LabException le
              ? le
              : new LabException("cannot run ssh: " + e.getCause());
        }
        String name = nodes.get(i).name();
        r.stdout().lines().forEach(l -> out.println(name + ": " + l));
        r.stderr().lines().forEach(l -> System.err.println(name + ": " + l));
        rc = rc != 0 ? rc : r.exitCode();
      }
    } finally {
      pool.shutdownNow();
    }
    out.flush();
    return rc;
  }

  private void writeInventories(LabState state) {
    for (String s : state.stacks()) {
      Stack st = Stack.parse(s);
      Path inv = paths.inventory(st);
      try {
        Files.createDirectories(inv.getParent());
        Files.writeString(inv, LabInventory.yaml(st, state, inv.getParent(), paths.certs()));
      } catch (IOException e) {
        throw new LabException("cannot write " + inv + ": " + e.getMessage());
      }
    }
  }

  private void printHowTo(LabState state, List<Stack> stacks, LabFiles files) {
    for (Stack s : stacks) {
      Path inv = paths.inventory(s);
      out.println();
      out.println(
          s.word()
              + " is up on node1 and node2 ("
              + s.mountPoint()
              + ", accelerator "
              + state.accel()
              + "); inventory:");
      out.println("  " + inv);
      out.println("Run a scenario on it:");
      out.println(
          "  ./lockstep lab run --stack " + s.word() + " SCENARIO.yaml [lockstep run options]");
      out.println("or by hand, inside the lab's network namespace:");
      out.println(
          "  ip netns exec "
              + state.namespace()
              + " java -jar "
              + files.coordinatorJar()
              + " run SCENARIO.yaml --inventory "
              + inv);
    }
  }

  private Guests guests(LabState state, LabFiles files) {
    return new Guests(
        state.namespace(),
        Path.of(state.sshKey()),
        paths.knownHosts(),
        files.guestScript(),
        commands);
  }

  private FileLock lock() throws IOException {
    Files.createDirectories(config.dir());
    FileChannel ch =
        FileChannel.open(
            config.dir().resolve("lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
    FileLock l = ch.tryLock();
    if (l == null) {
      ch.close();
      throw new LabException("another lockstep lab command is running on " + config.dir());
    }
    return l;
  }

  private static void sparse(Path file, long bytes) throws IOException {
    Files.deleteIfExists(file);
    try (FileChannel ch =
        FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      ch.truncate(0);
      ch.position(bytes - 1);
      ch.write(ByteBuffer.wrap(new byte[1]));
    }
  }

  private static String lastLine(Path file) {
    try {
      List<String> l =
          Files.readAllLines(file).stream().map(String::strip).filter(s -> !s.isEmpty()).toList();
      return l.isEmpty() ? "(empty)" : l.get(l.size() - 1);
    } catch (IOException e) {
      return "(unreadable)";
    }
  }
}
