package lockstep.agent.env;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * Cluster settings that only the cluster's daemons know at run time, asked with their own tools:
 * dlm_controld's effective configuration ({@code dlm_tool dump_config}: plock_rate_limit,
 * plock_ownership, ...), corosync's totem timeouts ({@code corosync-cmapctl runtime.config.totem}:
 * token, consensus, ...), and what the node runs on ({@code systemd-detect-virt}: "qemu" is QEMU's
 * software emulation, figures of which are the emulator's). A tool that is not installed, not
 * running or not answering within {@link #TIMEOUT_MILLIS} leaves its settings out.
 */
final class ClusterDaemons {
  static final long TIMEOUT_MILLIS = 3_000;

  /** dlm_controld settings that change lock figures or recovery (the rest are debugging). */
  static final Set<String> DLM_SETTINGS =
      Set.of(
          "plock_rate_limit",
          "plock_ownership",
          "enable_plock",
          "protocol",
          "enable_fencing",
          "post_join_delay",
          "drop_resources_time",
          "drop_resources_count",
          "drop_resources_age");

  /** corosync totem settings that bound how long a lost node stalls the others. */
  static final Set<String> TOTEM_SETTINGS =
      Set.of("token", "consensus", "join", "token_retransmits_before_loss_const", "merge");

  private final Function<List<String>, Optional<String>> run;

  ClusterDaemons(Function<List<String>, Optional<String>> run) {
    this.run = run;
  }

  /** Asking the real tools on this node (each only if it is on the PATH). */
  static ClusterDaemons onThisNode() {
    return new ClusterDaemons(ClusterDaemons::output);
  }

  Map<String, String> settings() {
    Map<String, String> out = new TreeMap<>();
    run.apply(List.of("dlm_tool", "dump_config")).ifPresent(t -> out.putAll(dlmConfig(t)));
    run.apply(List.of("corosync-cmapctl", "runtime.config.totem"))
        .ifPresent(t -> out.putAll(totem(t)));
    run.apply(List.of("systemd-detect-virt"))
        .map(String::trim)
        .filter(v -> !v.isEmpty())
        .ifPresent(v -> out.put("host:virtualization", virtualization(v)));
    return out;
  }

  /** "plock_rate_limit=100 (dlm.conf)" lines, the chosen settings, the value without its source. */
  static Map<String, String> dlmConfig(String dumpConfig) {
    Map<String, String> out = new TreeMap<>();
    for (String line : dumpConfig.split("\n")) {
      int eq = line.indexOf('=');
      if (eq <= 0) {
        continue;
      }
      String key = line.substring(0, eq).trim();
      if (DLM_SETTINGS.contains(key)) {
        String value = line.substring(eq + 1).trim();
        int paren = value.indexOf(" (");
        out.put("dlm_controld:" + key, paren < 0 ? value : value.substring(0, paren));
      }
    }
    return out;
  }

  /** "runtime.config.totem.token (u32) = 3000" lines: the chosen totem settings, in ms. */
  static Map<String, String> totem(String cmap) {
    Map<String, String> out = new TreeMap<>();
    for (String line : cmap.split("\n")) {
      String prefix = "runtime.config.totem.";
      int eq = line.indexOf(" = ");
      if (!line.startsWith(prefix) || eq < 0) {
        continue;
      }
      String key = line.substring(prefix.length()).replaceFirst(" \\(.*$", "").trim();
      key = key.contains(" ") ? key.substring(0, key.indexOf(' ')) : key;
      if (TOTEM_SETTINGS.contains(key)) {
        out.put("corosync:totem." + key, line.substring(eq + 3).trim());
      }
    }
    return out;
  }

  static String virtualization(String detected) {
    return switch (detected) {
      case "qemu" -> "qemu (software emulation, no KVM: figures are the emulator's)";
      case "none" -> "none (bare metal)";
      default -> detected;
    };
  }

  /**
   * A tool's standard output if it is on the PATH, exits 0 within the timeout, and prints
   * something; empty otherwise (the tool's own errors are not the node's environment).
   */
  static Optional<String> output(List<String> command) {
    if (!onPath(command.get(0))) {
      return Optional.empty();
    }
    try {
      Process p =
          new ProcessBuilder(command)
              .redirectErrorStream(false)
              .redirectError(ProcessBuilder.Redirect.DISCARD)
              .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
              .start();
      // the answers are a few KiB, well within a pipe's buffer: wait first, then read, so a tool
      // that hangs cannot hold Describe
      if (!p.waitFor(TIMEOUT_MILLIS, TimeUnit.MILLISECONDS)) {
        p.destroyForcibly();
        return Optional.empty();
      }
      byte[] bytes;
      try (InputStream in = p.getInputStream()) {
        bytes = in.readNBytes(1 << 16);
      }
      String text = new String(bytes, StandardCharsets.UTF_8);
      return p.exitValue() == 0 && !text.isBlank() ? Optional.of(text) : Optional.empty();
    } catch (IOException e) {
      return Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    }
  }

  private static boolean onPath(String tool) {
    String path = System.getenv().getOrDefault("PATH", "/usr/sbin:/usr/bin:/sbin:/bin");
    for (String dir : (path + ":/usr/sbin:/sbin").split(":")) {
      if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, tool))) {
        return true;
      }
    }
    return false;
  }
}
