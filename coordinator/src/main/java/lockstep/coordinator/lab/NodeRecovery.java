package lockstep.coordinator.lab;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;

/**
 * A fault's victim made a whole cluster member again: its QEMU process killed if it still runs (a
 * guest the cluster wrote off while it was frozen or cut off must not come back with its old state:
 * that is what fencing is for), started again from its disk, booted, its private disk, corosync,
 * dlm_controld and GFS2, o2cb and OCFS2 (whichever stacks are up) rejoined and mounted, and its
 * agents restarted on the mounted file systems and answering.
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
    waitForSsh(n, guests, s);
    guests.must(n, Lab.BOOT_TIMEOUT, "boot-ready", Long.toString(Lab.BOOT_TIMEOUT.toSeconds()));
    guests.must(n, Lab.STEP_TIMEOUT, "priv-up");
    String wait = Long.toString(Duration.ofMinutes(2).toSeconds());
    for (String word : s.stacks()) {
      Stack stack = Stack.parse(word);
      // not started at boot (the unit's ConditionPathIsMountPoint); stopped in case it was
      guests.must(n, Lab.STEP_TIMEOUT, "agent-stop", stack.word());
      switch (stack) {
        case GFS2 -> {
          guests.must(
              n,
              Lab.STEP_TIMEOUT,
              "gfs2-config",
              s.setting(LabSetting.PLOCK_RATE_LIMIT.key()),
              s.setting(LabSetting.PLOCK_OWNERSHIP.key()));
          guests.must(n, Lab.STEP_TIMEOUT, "gfs2-corosync", wait);
          guests.must(n, Lab.STEP_TIMEOUT, "gfs2-dlm", wait);
          guests.must(n, Lab.STEP_TIMEOUT, "gfs2-mount");
        }
        case OCFS2 -> {
          guests.must(n, Lab.STEP_TIMEOUT, "ocfs2-o2cb", wait);
          String la = s.setting(LabSetting.LOCALALLOC.key());
          if (la == null || la.equals("default")) {
            guests.must(n, Lab.STEP_TIMEOUT, "ocfs2-mount");
          } else {
            guests.must(n, Lab.STEP_TIMEOUT, "ocfs2-mount", la);
          }
        }
      }
      guests.must(
          n,
          Lab.AGENT_START_TIMEOUT,
          "agent-start",
          stack.word(),
          Integer.toString(stack.guestPort()));
    }
    AgentDeploy deploy = new AgentDeploy(paths, files, commands, log);
    for (String word : s.stacks()) {
      deploy.answer(Stack.parse(word), s);
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

  private void waitForSsh(LabNode n, Guests g, LabState state) {
    long end = System.nanoTime() + Lab.BOOT_TIMEOUT.toNanos();
    while (!g.answers(n)) {
      Long pid = state.pids().get(n.name());
      if (pid == null || LabProcesses.ours(pid, paths.dir()).isEmpty()) {
        throw new LabException(
            n.name() + ": QEMU exited while booting again; its console is " + paths.console(n));
      }
      if (System.nanoTime() > end) {
        throw new LabException(
            n.name()
                + ": no ssh within "
                + Lab.BOOT_TIMEOUT.toSeconds()
                + " s of its restart; its console is "
                + paths.console(n));
      }
      LabProcesses.sleepMillis(1000);
    }
  }
}
