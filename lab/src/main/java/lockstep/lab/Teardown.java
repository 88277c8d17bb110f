package lockstep.lab;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Removes a lab, whatever state it is in: the processes of its state file (QMP quit, then signals),
 * any process still in its namespace, the namespace, its disks, sockets and state. Idempotent; run
 * by {@code down}, by a failed {@code up} and by the shutdown hook of an interrupted one.
 */
final class Teardown {
  private static final Duration STOP_BOUND = Duration.ofSeconds(15);

  private final LabPaths paths;
  private final Commands commands;
  private final LabLog log;
  private boolean armed = true;

  Teardown(LabPaths paths, Commands commands, LabLog log) {
    this.paths = paths;
    this.commands = commands;
    this.log = log;
  }

  /** After a successful {@code up}: the shutdown hook no longer removes anything. */
  synchronized void disarm() {
    armed = false;
  }

  synchronized void run(String why) {
    if (!armed) {
      return;
    }
    log.say(why);
    double t0 = log.seconds();
    Optional<LabState> state;
    try {
      state = LabState.read(paths.state());
    } catch (LabException e) {
      log.say(e.getMessage() + "; removing what the namespace holds");
      state = Optional.empty();
    }
    String ns = state.map(LabState::namespace).orElse(Netns.nameFor(paths.dir()));
    List<String> problems = Collections.synchronizedList(new ArrayList<>());
    if (state.isPresent()) {
      // the guests first (all at once), the storage daemon serving their disks last
      LabState s = state.get();
      Parallel.each(s.nodes(), n -> stop(s, n.name(), paths.qmp(n), problems));
      stop(s, "storage", paths.storageQmp(), problems);
    }
    Netns netns = new Netns(ns, commands);
    // whatever else still runs in the lab's own namespace was started by the lab (ssh, ansible)
    for (long pid : netns.pids()) {
      ProcessHandle.of(pid)
          .ifPresent(
              p -> {
                log.say(
                    "ending pid "
                        + pid
                        + " left in namespace "
                        + ns
                        + ": "
                        + p.info().command().orElse("?"));
                p.destroy();
                if (!LabProcesses.waitGone(p, Duration.ofSeconds(5))) {
                  p.destroyForcibly();
                  LabProcesses.waitGone(p, Duration.ofSeconds(5));
                }
              });
    }
    try {
      netns.delete();
    } catch (LabException e) {
      problems.add(e.getMessage());
    }
    unmountEmptyNetnsDir();
    removeFiles(state.map(LabState::nodes).orElse(LabNode.of(LabNode.MAX, 0)));
    armed = false;
    if (problems.isEmpty()) {
      log.say(String.format(Locale.ROOT, "lab removed in %.1f s", log.seconds() - t0));
    } else {
      throw new LabException("lab not fully removed: " + String.join("; ", problems));
    }
  }

  private boolean stop(LabState state, String role, Path qmp, List<String> problems) {
    Long pid = state.pids().get(role);
    if (pid == null) {
      return true;
    }
    LabProcesses.ours(pid, paths.dir())
        .ifPresent(
            p -> {
              if (LabProcesses.stop(p, qmp, STOP_BOUND)) {
                log.say("stopped " + role + " (pid " + pid + ")");
              } else {
                problems.add(role + " (pid " + pid + ") did not end");
              }
            });
    return true;
  }

  /** `ip netns add` bind-mounts /run/netns on itself; with no namespace left it goes too. */
  private void unmountEmptyNetnsDir() {
    Path dir = Path.of("/run/netns");
    try (var s = Files.list(dir)) {
      if (s.findAny().isPresent()) {
        return;
      }
    } catch (IOException e) {
      return;
    }
    Commands.Result r =
        commands.run(List.of("mountpoint", "-q", dir.toString()), Duration.ofSeconds(10));
    if (r.ok()) {
      commands.run(List.of("umount", dir.toString()), Duration.ofSeconds(10));
    }
  }

  private void removeFiles(List<LabNode> nodes) {
    List<Path> files = new ArrayList<>();
    for (LabNode n : nodes) {
      files.addAll(
          List.of(paths.overlay(n), paths.qmp(n), paths.pidFile(n), paths.disk(n.privateExport())));
    }
    for (Stack s : Stack.values()) {
      files.add(paths.disk(s.word()));
    }
    files.addAll(
        List.of(paths.nbdSocket(), paths.storageQmp(), paths.storagePidFile(), paths.knownHosts()));
    try {
      for (Path p : files) {
        Files.deleteIfExists(p);
      }
      for (Stack s : Stack.values()) {
        ImageBuilder.deleteTree(paths.inventory(s).getParent());
      }
      ImageBuilder.deleteTree(paths.certs());
      Files.deleteIfExists(paths.state());
    } catch (IOException e) {
      throw new LabException("cannot remove the lab's files: " + e.getMessage());
    }
  }
}
