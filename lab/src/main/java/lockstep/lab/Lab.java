package lockstep.lab;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import lockstep.coordinator.fault.FaultInjector;

/**
 * {@code lockstep lab}: a cluster of 2 to 4 QEMU guests on this machine (every QEMU and the storage
 * daemon in a network namespace of the lab's own, the guests on one switch there), GFS2 and/or
 * OCFS2 on shared disks, agents deployed with the project's Ansible playbook and systemd unit, mTLS
 * from {@code lockstep certs}. The command line only parses into a {@link LabConfig}; each command
 * here is a few calls to the classes that do the work ({@link Boot}, {@link StackUp}, {@link
 * AgentDeploy}, {@link NodeRecovery}, {@link Teardown}, {@link CoordinatorProcess}, {@link
 * GuestShell}, {@link LabStatus}).
 */
public final class Lab {
  static final Duration STEP_TIMEOUT = Duration.ofMinutes(3);

  /** An agent's start, up to listening (lab-node.sh agent-start waits 270 s for it). */
  static final Duration AGENT_START_TIMEOUT = Duration.ofMinutes(5);

  /** The node name {@link #ssh} takes for every guest at once. */
  public static final String ALL_NODES = GuestShell.ALL_NODES;

  private final LabConfig config;
  private final PrintStream out;
  private final PrintStream err;
  private final LabPaths paths;
  private final LabLog log;
  private final Commands commands;

  public Lab(LabConfig config, PrintStream out) {
    this(config, out, System.err);
  }

  /**
   * A lab whose command prints on {@code out}; the coordinator it runs ({@code lab run}, {@code lab
   * agents}) writes its errors on {@code err}.
   */
  public Lab(LabConfig config, PrintStream out, PrintStream err) {
    this.config = config;
    this.out = out;
    this.err = err;
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
   * this call booted the lab and fails or is interrupted (Ctrl-C, SIGTERM), everything it made is
   * removed; on a lab that was up, a failure or an interrupt leaves the lab as it was.
   */
  public void up(List<Stack> stacks) {
    HostCheck.root("up");
    HostCheck.programs(HostCheck.RUN, HostCheck.systemPath());
    LabFiles files = LabFiles.locate();
    // the package the agents are deployed from, before anything is booted (a stale one failed
    // an up after three minutes of boot and stacks)
    files.agentPackage();
    try (LabLock lock = LabLock.take(config.dir());
        Interruption ctrlC = Interruption.during("up", commands, log)) {
      Optional<LabState> existing = LabState.read(paths.state());
      if (existing.isPresent() && leftBehind(existing.get(), config.dir())) {
        new Teardown(paths, commands, log)
            .run(
                "the lab in "
                    + config.dir()
                    + " was left behind (none of its processes runs: a reboot, or a killed lab);"
                    + " removing what is left of it, then booting afresh");
        existing = Optional.empty();
      }
      boolean booting = existing.isEmpty();
      ctrlC.onInterrupt(
          booting
              ? () -> freshTeardown().run("interrupted: removing what this `up` made")
              : () -> log.say("interrupted: the lab stays up as state.json says"));
      try {
        LabState state =
            booting ? new Boot(config, paths, files, commands, log).boot() : alive(existing.get());
        if (!booting) {
          sameShape(state);
        }
        List<Stack> todo = stacks.stream().filter(s -> !state.has(s)).toList();
        stacks.stream().filter(state::has).forEach(s -> log.say(s.word() + " is up already"));
        LabState now = state;
        StackUp stackUp = new StackUp(paths, Guests.of(now, paths, files, commands), log);
        for (Stack s : todo) {
          now = stackUp.up(s, now);
          now.write(paths.state());
        }
        writeInventories(now);
        new AgentDeploy(paths, files, commands, log).deploy(todo, now);
        printHowTo(now, stacks, files);
      } catch (RuntimeException e) {
        if (ctrlC.happened()) {
          throw e; // the hook cleans up, as it says
        }
        if (booting) {
          log.say("up failed: " + e.getMessage());
          freshTeardown().run("removing what this `up` made");
        } else {
          log.say("up failed; the lab stays as it was (lockstep lab down removes it)");
        }
        throw e;
      }
    } catch (IOException e) {
      throw new LabException("cannot boot the lab in " + config.dir() + ": " + e.getMessage());
    }
  }

  /** A teardown with programs of its own: an interrupt cancels the command's, not these. */
  private Teardown freshTeardown() {
    return new Teardown(paths, new Commands(log), log);
  }

  /** {@code up} on a lab that is up: its node count is the one it booted with. */
  private void sameShape(LabState state) {
    if (state.nodeCount() != config.nodes() || state.servers() != config.servers()) {
      throw new LabException(
          "the lab in "
              + config.dir()
              + " is up with "
              + state.nodeCount()
              + " nodes ("
              + state.servers()
              + " servers); --nodes and --servers apply when it boots: lab down first");
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

  /**
   * Waits for a lab command running on this directory in another process (an {@code up} started by
   * hand before a test run, say) to end; returns whether there was one.
   */
  public boolean awaitOtherCommand() {
    return LabLock.awaitFree(config.dir());
  }

  /**
   * The lab's state when one is up and every process of it runs (its guests and storage daemon);
   * empty when none is up or some process is gone (a broken lab: {@code down} removes it).
   */
  public Optional<LabState> running() {
    return LabState.read(paths.state())
        .filter(
            s ->
                s.pids().values().stream()
                    .allMatch(pid -> LabProcesses.ours(pid, config.dir()).isPresent()));
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
                    "no lab is up in " + config.dir() + " (lockstep lab up gfs2|ocfs2|nfs)"));
  }

  /**
   * Deploys the agents of the stacks that are up again, with the agent jar as it is now (the
   * playbook copies it and restarts the agents when it changed), and waits until they answer.
   */
  public void deploy(List<Stack> stacks) {
    HostCheck.root("deploy");
    HostCheck.programs(HostCheck.RUN, HostCheck.systemPath());
    LabFiles files = LabFiles.locate();
    try (LabLock lock = LabLock.take(config.dir());
        Interruption ctrlC = Interruption.during("deploy", commands, log)) {
      LabState state = upState();
      List<Stack> which = stacks.isEmpty() ? state.upStacks() : stacks;
      for (Stack s : which) {
        if (!state.has(s)) {
          throw new LabException(s.word() + " is not up (lockstep lab up " + s.word() + ")");
        }
      }
      new AgentDeploy(paths, files, commands, log).deploy(which, state);
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
    try (LabLock lock = LabLock.take(config.dir())) {
      Optional<LabState> state = LabState.read(paths.state());
      if (state.isEmpty() && !new Netns(Netns.nameFor(config.dir()), commands).exists()) {
        out.println("lab: nothing to remove in " + config.dir() + " (no lab is up)");
        return;
      }
      // Ctrl-C during down: its shutdown hook waits for nothing, and down goes on; a down run
      // again removes what is left
      new Teardown(paths, commands, log).run("lab down");
    }
  }

  /** What is up, its settings, and what each guest says of its cluster. */
  public void status() {
    HostCheck.root("status");
    LabState state = upState();
    new LabStatus(paths, Guests.of(state, paths, LabFiles.locate(), commands), out).print(state);
  }

  /** Applies each KEY=VALUE on every member (or the storage daemon), then rewrites inventories. */
  public void set(List<LabSetting.Change> changes) {
    HostCheck.root("set");
    upState();
    try (LabLock lock = LabLock.take(config.dir());
        Interruption ctrlC = Interruption.during("set", commands, log)) {
      ctrlC.onInterrupt(
          () ->
              log.say(
                  "interrupted: the settings before the one in flight are set; set the rest"
                      + " again (lab status shows them)"));
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
          new StackUp(paths, Guests.of(state, paths, files, commands), log)
              .whenRemounted(deploy::answerAll);
      for (LabSetting.Change c : changes) {
        if (!c.setting().mountsNfs()) {
          state = stacks.set(c, state);
          state.write(paths.state());
          log.say("set " + c.setting().key() + "=" + c.word());
        }
      }
      // NFS's mount options of one set, in one remount
      List<LabSetting.Change> mounts =
          changes.stream().filter(c -> c.setting().mountsNfs()).toList();
      if (!mounts.isEmpty()) {
        state = stacks.setNfsMount(mounts, state);
        state.write(paths.state());
        for (LabSetting.Change c : mounts) {
          log.say("set " + c.setting().key() + "=" + c.word());
        }
      }
      writeInventories(state);
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
              ? "no stack is up (lockstep lab up gfs2|ocfs2|nfs)"
              : String.join(", ", state.stacks()) + " are up: say which with --stack");
    }
    return Stack.parse(state.stacks().get(0));
  }

  /**
   * {@code lockstep run SCENARIO OPTIONS} on a stack, with the lease emulated guests need unless
   * the options set one ({@link Accelerator#runOptions}).
   */
  public int run(Stack stack, String scenario, List<String> options) {
    List<String> args = new ArrayList<>(List.of("run", scenario));
    args.addAll(Accelerator.runOptions(alive(upState()).accel(), options));
    return coordinator(stack, args);
  }

  /**
   * The coordinator ({@code lockstep ARGS... --inventory INV}) inside the lab's namespace, its
   * output on this terminal; returns its exit code. Ctrl-C ends it as it ends any run (its agents'
   * runs aborted), then this.
   */
  public int coordinator(Stack stack, List<String> args) {
    HostCheck.root("run");
    LabState state = alive(upState());
    LabFiles files = LabFiles.locate();
    List<String> full = new ArrayList<>(args);
    full.addAll(List.of("--inventory", paths.inventory(stack).toString()));
    try (Interruption ctrlC =
        Interruption.during("run", commands, log, CoordinatorProcess.ABORT_GRACE)) {
      return new CoordinatorProcess(state.namespace(), files, commands, out, err).run(full);
    }
  }

  /** What carries out a scenario's faults on this lab's guests ({@code lockstep run} on it). */
  public FaultInjector faults() {
    return new LabFaults(this, paths);
  }

  /** The lab's state as written (its processes need not all run: a fault may have killed one). */
  LabState current() {
    return upState();
  }

  /** The node's port on the cluster switch down ({@code off}) or up again: a partition. */
  void cut(LabNode n, boolean off) {
    new Netns(upState().namespace(), commands).cut(n, off);
  }

  /**
   * The NFS server's nfsd stopped, or started again (its grace period begins), for a scenario's
   * {@code restart}; returns what was done. Refused on a node that serves no file system.
   */
  String nfsd(LabNode n, boolean stop) {
    LabState state = upState();
    if (!state.has(Stack.NFS) || !state.nfsServer().equals(n)) {
      throw new LabException(
          "restart acts on the node that serves a file system: "
              + (state.has(Stack.NFS)
                  ? "the NFS server, " + state.nfsServer().name()
                  : "this lab serves none (lab up nfs)"));
    }
    String out =
        Guests.of(state, paths, LabFiles.locate(), commands)
            .must(n, Duration.ofMinutes(1), stop ? "nfsd-stop" : "nfsd-start");
    return out.strip().lines().reduce((a, b) -> b).orElse(stop ? "nfsd stopped" : "nfsd started");
  }

  /** A fault's victim back as a healthy cluster member; returns what was done, in one line. */
  public String recover(String node) {
    return recover(upState().node(node));
  }

  String recover(LabNode n) {
    HostCheck.root("recover");
    double t0 = log.seconds();
    LabState state = upState();
    LabFiles files = LabFiles.locate();
    try (Interruption ctrlC = Interruption.during("recover", commands, log)) {
      ctrlC.onInterrupt(
          () ->
              log.say(
                  "interrupted: "
                      + n.name()
                      + " is as far as its recovery got; lab recover "
                      + n.name()
                      + " finishes it"));
      new NodeRecovery(paths, commands, log, files)
          .recover(n, state, Guests.of(state, paths, files, commands));
    }
    return String.format(
        Locale.ROOT,
        "restarted, rejoined %s and remounted, agents answering, in %.0f s",
        String.join(" and ", state.stacks()),
        log.seconds() - t0);
  }

  /**
   * Whether the cluster has written {@code n} off while it was frozen or cut off for {@code
   * forMillis} (each stack that is up decides by its own timeouts: {@link Stack#writtenOff}); null
   * when it is still a member of every stack that is up, else why not.
   */
  String writtenOff(LabNode n, long forMillis) {
    LabState state = upState();
    for (String word : state.stacks()) {
      String why = Stack.parse(word).writtenOff(n.name(), state.clients().size(), forMillis);
      if (why != null) {
        return why;
      }
    }
    return null;
  }

  /** A root shell or command on one guest, or a command on every guest at once ({@code all}). */
  public int ssh(String node, List<String> command) {
    HostCheck.root("ssh");
    LabState state = alive(upState());
    return new GuestShell(Guests.of(state, paths, LabFiles.locate(), commands), commands, out)
        .run(state, node, command);
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
              + " is up on "
              + StackUp.names(state.clients())
              + " ("
              + s.mountPoint()
              + ", accelerator "
              + state.accel()
              + "); inventory:");
      out.println("  " + inv);
      out.println("Run a scenario on it:");
      out.println(
          "  ./lockstep lab run --stack "
              + s.word()
              + " SCENARIO.yaml [lockstep run options, e.g. --nodes node1,node2]");
      out.println("or by hand, inside the lab's network namespace:");
      out.println(
          "  ip netns exec "
              + state.namespace()
              + " "
              + String.join(
                  " ",
                  files.lockstep(List.of("run", "SCENARIO.yaml", "--inventory", inv.toString()))));
    }
  }
}
