package lockstep.agent.env;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cluster daemons' settings, from their tools' output as captured in the project's GFS2/OCFS2
 * lab (Debian 12: dlm_controld 4.2, corosync 3.1) and from o2cb's configfs tree.
 */
class ClusterDaemonsTest {
  private static String resource(String name) throws IOException {
    try (var in = ClusterDaemonsTest.class.getResourceAsStream("/env/" + name)) {
      return new String(in.readAllBytes());
    }
  }

  @Test
  void dlmControldsEffectiveSettingsWithoutTheirSource() throws IOException {
    Map<String, String> s = ClusterDaemons.dlmConfig(resource("dlm_tool-dump_config.txt"));
    assertThat(s)
        .containsEntry("dlm_controld:plock_rate_limit", "100")
        .containsEntry("dlm_controld:plock_ownership", "1")
        .containsEntry("dlm_controld:protocol", "tcp")
        .containsEntry("dlm_controld:enable_fencing", "0")
        .containsEntry("dlm_controld:enable_plock", "1")
        .doesNotContainKey("dlm_controld:daemon_debug")
        .doesNotContainKey("dlm_controld:foreground");
  }

  @Test
  void corosyncsTotemTimeouts() throws IOException {
    Map<String, String> s = ClusterDaemons.totem(resource("corosync-cmapctl-totem.txt"));
    assertThat(s)
        .containsEntry("corosync:totem.token", "3000")
        .containsEntry("corosync:totem.consensus", "3600")
        .containsEntry("corosync:totem.join", "50")
        .containsEntry("corosync:totem.token_retransmits_before_loss_const", "4")
        .doesNotContainKey("corosync:totem.window_size");
  }

  @Test
  void eachToolThatAnswersAddsItsSettingsAndOneThatDoesNotLeavesThemOut() throws IOException {
    String dlm = resource("dlm_tool-dump_config.txt");
    ClusterDaemons d =
        new ClusterDaemons(
            cmd ->
                switch (cmd.get(0)) {
                  case "dlm_tool" -> Optional.of(dlm);
                  case "systemd-detect-virt" -> Optional.of("qemu\n");
                  default -> Optional.empty(); // corosync-cmapctl: not installed, or no access
                });
    assertThat(d.settings())
        .containsEntry("dlm_controld:plock_rate_limit", "100")
        .containsEntry(
            "host:virtualization", "qemu (software emulation, no KVM: figures are the emulator's)")
        .doesNotContainKeys("corosync:totem.token");
    assertThat(ClusterDaemons.output(List.of("no-such-tool-on-any-path"))).isEmpty();
    assertThat(ClusterDaemons.output(List.of("false"))).isEmpty();
    assertThat(ClusterDaemons.output(List.of("echo", "x"))).contains("x\n");
  }

  @Test
  void o2cbsTimeoutsAndTheClusterStackFromConfigfs(@TempDir Path base) throws IOException {
    Path c = Files.createDirectories(base.resolve("sys/kernel/config/cluster/lockstep/heartbeat"));
    Files.writeString(c.resolveSibling("idle_timeout_ms"), "30000\n");
    Files.writeString(c.resolveSibling("keepalive_delay_ms"), "2000\n");
    Files.writeString(c.resolveSibling("reconnect_delay_ms"), "2000\n");
    Files.writeString(c.resolve("dead_threshold"), "31\n");
    Files.createDirectories(base.resolve("sys/fs/ocfs2"));
    Files.writeString(base.resolve("sys/fs/ocfs2/cluster_stack"), "o2cb\n");
    assertThat(ClusterSettings.fromO2cb(base))
        .containsEntry("o2cb:idle_timeout_ms", "30000")
        .containsEntry("o2cb:keepalive_delay_ms", "2000")
        .containsEntry("o2cb:reconnect_delay_ms", "2000")
        .containsEntry("o2cb:heartbeat_dead_threshold", "31")
        .containsEntry("ocfs2:cluster_stack", "o2cb");
    assertThat(ClusterSettings.fromO2cb(base.resolve("nothing"))).isEmpty();
  }
}
