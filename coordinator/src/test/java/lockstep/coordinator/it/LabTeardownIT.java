package lockstep.coordinator.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The last of the lab's integration tests (failsafe runs the classes in alphabetical order, so
 * every other Lab*IT has used the lab by now): {@code down} leaves no QEMU, no storage daemon, no
 * namespace and no mount, and says so when run again.
 */
class LabTeardownIT extends LabTest {

  @Test
  void downLeavesNothing() throws Exception {
    Cli r = LabCluster.lab("down");
    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(run("pgrep", "-f", "process=lockstep-node")).isEmpty();
    assertThat(run("pgrep", "-f", "qemu-storage-daemon.*" + LabCluster.DIR)).isEmpty();
    assertThat(run("ip", "netns", "list")).doesNotContain(lab.namespace);
    assertThat(Files.readString(Path.of("/proc/mounts"))).doesNotContain(LabCluster.DIR.toString());
    assertThat(Files.exists(LabCluster.DIR.resolve("state.json"))).isFalse();
    Cli again = LabCluster.lab("down");
    assertThat(again.exitCode()).isZero();
    assertThat(again.out()).contains("nothing to remove");
  }

  private static String run(String... cmd) throws Exception {
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes());
    p.waitFor(30, TimeUnit.SECONDS);
    return out;
  }
}
