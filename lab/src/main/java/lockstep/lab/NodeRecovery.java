package lockstep.lab;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A fault's victim made a whole cluster member again: its QEMU process killed if it still runs (a
 * guest the cluster wrote off while it was frozen or cut off must not come back with its old state:
 * that is what fencing is for), started again from its disk, booted, its private disk, corosync,
 * dlm_controld and GFS2, o2cb and OCFS2 (whichever stacks are up) rejoined and mounted, and its
 * agent restarted on the mounted file systems and answering for each.
 */
record NodeRecovery(LabPaths paths, Commands commands, LabLog log, LabFiles files) {
  private static final Duration KILL_BOUND = Duration.ofSeconds(60);

  /** Returns the new state (the victim's new pid) and writes it; one line says what was done. */
  LabState recover(LabNode n, LabState state, Guests guests) {
    double t0 = log.seconds();
    Long old = state.pids().get(n.name());
    if (old != null) {
      Optional<ProcessHandle> p = LabProcesses.ours(old, paths.dir());
      if (p.isPresent()) {
        p.get().destroyForcibly();
        if (!LabProcesses.waitGone(p.get(), KILL_BOUND)) {
          throw new LabException(n.name() + ": QEMU pid " + old + " does not exit after SIGKILL");
        }
      }
    }
    LabState s = start(n, state);
    Boot.waitForSsh(guests, paths, log, s, List.of(n));
    guests.must(n, Boot.BOOT_TIMEOUT, "boot-ready", Long.toString(Boot.BOOT_TIMEOUT.toSeconds()));
    guests.must(n, Lab.STEP_TIMEOUT, "priv-up");
    if (n.client()) {
      // not started at boot (the unit's ConditionPathIsMountPoint); stopped in case it was
      guests.must(n, Lab.STEP_TIMEOUT, "agent-stop");
      // each stack rejoins at once: corosync and dlm_controld, o2cb and its disk heartbeat are
      // apart, and the OCFS2 mount's wait on the heartbeat need not wait for GFS2's
      StackUp stacks = new StackUp(paths, guests, log);
      Parallel.each(
          s.upStacks(),
          stack -> {
            stacks.rejoin(stack, n, s);
            return stack;
          });
      guests.must(n, Lab.AGENT_START_TIMEOUT, "agent-start", Integer.toString(LabAgent.GUEST_PORT));
    } else {
      new StackUp(paths, guests, log).reserve(n, s);
    }
    AgentDeploy deploy = new AgentDeploy(paths, files, commands, log);
    if (n.client()) {
      deploy.answerAll(s);
    }
    log.say(
        String.format(
            Locale.ROOT,
            "%s recovered in %.0f s: restarted, %s rejoined and mounted, agents answering",
            n.name(),
            log.seconds() - t0,
            String.join(" and ", s.stacks())));
    return s;
  }

  private LabState start(LabNode n, LabState state) {
    try {
      Files.deleteIfExists(paths.pidFile(n));
    } catch (IOException e) {
      throw new LabException("cannot remove " + paths.pidFile(n) + ": " + e.getMessage());
    }
    // a node fenced at the end of a partition comes back with its switch port up
    new Netns(state.namespace(), commands).cut(n, false);
    GuestImage image = new GuestImage(Path.of(state.imageDir()), "", Path.of(state.sshKey()));
    Accelerator accel = new Accelerator(state.accel(), state.accelWhy());
    commands
        .run(
            Netns.exec(
                state.namespace(),
                QemuCommand.guest(n, image, paths, accel, state.memoryMib(), state.cpus())),
            Duration.ofSeconds(60))
        .orThrow("qemu-system-x86_64 (" + n.name() + ")");
    LabState s =
        state.withPid(n.name(), LabProcesses.readPidFile(paths.pidFile(n), Duration.ofSeconds(10)));
    s.write(paths.state());
    return s;
  }
}
