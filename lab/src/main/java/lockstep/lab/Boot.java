package lockstep.lab;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Boots a lab from nothing: its namespace with the cluster switch, the disks, the storage daemon,
 * one QEMU per node; then waits until every guest has booted and mounted its private disk. Each
 * piece is in DIR/state.json as soon as it exists, so that a teardown finds it.
 */
final class Boot {
  static final Duration BOOT_TIMEOUT = Duration.ofMinutes(10);
  static final long SHARED_DISK_BYTES = 2L << 30;
  static final long PRIVATE_DISK_BYTES = 1L << 30;

  private final LabConfig config;
  private final LabPaths paths;
  private final LabFiles files;
  private final Commands commands;
  private final LabLog log;

  Boot(LabConfig config, LabPaths paths, LabFiles files, Commands commands, LabLog log) {
    this.config = config;
    this.paths = paths;
    this.files = files;
    this.commands = commands;
    this.log = log;
  }

  LabState boot() throws IOException {
    Files.createDirectories(config.dir());
    GuestImage image = new ImageBuilder(config.cache(), files, commands, log).ensure();
    double t0 = log.seconds();
    Accelerator accel = Accelerator.choose(config.accel());
    log.say("accelerator " + accel.name() + ": " + accel.why());
    LabState state =
        new LabState(
            Netns.nameFor(config.dir()),
            image.dir().toString(),
            image.sshKey().toString(),
            accel.name(),
            accel.why(),
            config.memoryMib(),
            config.cpus(),
            config.nodes(),
            config.servers(),
            Map.of(),
            List.of(),
            initialSettings(),
            Instant.now().toString());
    state.write(paths.state());
    List<LabNode> nodes = state.nodes();
    Netns ns = new Netns(state.namespace(), commands);
    ns.create();
    ns.createSwitch(nodes);
    disks(image, nodes);
    knownHosts(image, nodes);
    state = startStorage(ns, state);
    for (LabNode n : nodes) {
      state = startGuest(ns, n, image, accel, state);
    }
    Map<String, Long> pids = state.pids();
    log.say(
        "QEMU started: "
            + String.join(
                ", ", nodes.stream().map(n -> n.name() + " pid " + pids.get(n.name())).toList())
            + ", storage daemon pid "
            + pids.get("storage")
            + " (namespace "
            + state.namespace()
            + ", cluster switch "
            + Netns.SWITCH
            + ", "
            + accel.name()
            + ")");
    Guests g = Guests.of(state, paths, files, commands);
    waitForSsh(g, paths, log, state, nodes);
    for (var e :
        g.each(nodes, BOOT_TIMEOUT, "boot-ready", Long.toString(BOOT_TIMEOUT.toSeconds()))
            .entrySet()) {
      log.say(e.getValue().strip());
    }
    g.each(nodes, Lab.STEP_TIMEOUT, "priv-up");
    log.say(
        String.format(
            Locale.ROOT,
            "booted %d guests, private ext4 disks on /mnt/priv (%d MB/s each) (boot %.0f s)",
            nodes.size(),
            config.diskMbps(),
            log.seconds() - t0));
    return state;
  }

  private Map<String, String> initialSettings() {
    Map<String, String> settings = new LinkedHashMap<>();
    settings.put(LabSetting.DISK_MBPS.key(), Integer.toString(config.diskMbps()));
    settings.put(LabSetting.PLOCK_RATE_LIMIT.key(), Integer.toString(config.plockRateLimit()));
    settings.put(LabSetting.PLOCK_OWNERSHIP.key(), Integer.toString(config.plockOwnership()));
    settings.put(
        LabSetting.LOCALALLOC.key(),
        config.localallocMb() == null ? "default" : Integer.toString(config.localallocMb()));
    for (LabSetting s : LabSetting.values()) {
      if (s.stack() == Stack.NFS) {
        settings.put(s.key(), s.initial());
      }
    }
    return settings;
  }

  private void disks(GuestImage image, List<LabNode> nodes) throws IOException {
    for (LabNode n : nodes) {
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
  }

  private void knownHosts(GuestImage image, List<LabNode> nodes) throws IOException {
    String hostKey = Files.readString(image.hostKey()).strip();
    StringBuilder kh = new StringBuilder();
    for (LabNode n : nodes) {
      kh.append("[127.0.0.1]:").append(n.sshPort()).append(' ').append(hostKey).append('\n');
    }
    Files.writeString(paths.knownHosts(), kh);
  }

  private LabState startStorage(Netns ns, LabState state) throws IOException {
    Files.deleteIfExists(paths.storagePidFile());
    commands
        .run(
            ns.exec(
                QemuCommand.storageDaemon(paths, state.nodes(), config.diskMbps() * 1_000_000L)),
            Duration.ofSeconds(30))
        .orThrow("qemu-storage-daemon");
    LabState s =
        state.withPid(
            "storage", LabProcesses.readPidFile(paths.storagePidFile(), Duration.ofSeconds(10)));
    s.write(paths.state());
    return s;
  }

  private LabState startGuest(
      Netns ns, LabNode n, GuestImage image, Accelerator accel, LabState state) throws IOException {
    Files.deleteIfExists(paths.pidFile(n));
    commands
        .run(
            ns.exec(QemuCommand.guest(n, image, paths, accel, config.memoryMib(), config.cpus())),
            Duration.ofSeconds(60))
        .orThrow("qemu-system-x86_64 (" + n.name() + ")");
    LabState s =
        state.withPid(n.name(), LabProcesses.readPidFile(paths.pidFile(n), Duration.ofSeconds(10)));
    s.write(paths.state());
    return s;
  }

  /**
   * Waits until sshd answers on each node; a QEMU that exited fails at once, naming its console.
   */
  static void waitForSsh(
      Guests g, LabPaths paths, LabLog log, LabState state, List<LabNode> nodes) {
    long end = System.nanoTime() + BOOT_TIMEOUT.toNanos();
    for (LabNode n : nodes) {
      // slirp accepts the TCP connection before sshd is up: each try has its own bound
      while (!g.answers(n)) {
        checkAlive(paths, state, n);
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

  private static void checkAlive(LabPaths paths, LabState state, LabNode n) {
    Long pid = state.pids().get(n.name());
    if (pid == null || LabProcesses.ours(pid, paths.dir()).isEmpty()) {
      throw new LabException(
          n.name()
              + ": QEMU has exited; its console is "
              + paths.console(n)
              + " (last line: "
              + lastLine(paths.console(n))
              + ")");
    }
  }

  static void sparse(Path file, long bytes) throws IOException {
    Files.deleteIfExists(file);
    try (FileChannel ch =
        FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      ch.truncate(0);
      ch.position(bytes - 1);
      ch.write(ByteBuffer.wrap(new byte[1]));
    }
  }

  static String lastLine(Path file) {
    try {
      List<String> l =
          Files.readAllLines(file).stream().map(String::strip).filter(s -> !s.isEmpty()).toList();
      return l.isEmpty() ? "(empty)" : l.get(l.size() - 1);
    } catch (IOException e) {
      return "(unreadable)";
    }
  }
}
