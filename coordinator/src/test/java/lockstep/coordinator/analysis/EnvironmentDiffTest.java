package lockstep.coordinator.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import lockstep.coordinator.model.AgentRecord;
import org.junit.jupiter.api.Test;

class EnvironmentDiffTest {
  /** An NFS client as the lab's agents describe one (mount options from /proc/self/mountinfo). */
  private static AgentRecord nfsClient(String node, String options) {
    return new AgentRecord(
        node,
        "127.0.0.1:707" + node.charAt(4),
        "0.1",
        node,
        "/mnt/nfs/lockstep",
        "nfs4",
        "/mnt/nfs",
        options,
        "192.168.77.3:/mnt/priv/nfs",
        "6.1.0-57-amd64",
        1,
        "QEMU Virtual CPU",
        1L << 30,
        "",
        Map.of(),
        Map.of(),
        "");
  }

  private static String options(String vers, String clientaddr) {
    return "rw,nosuid,relatime,rw,vers="
        + vers
        + ",rsize=262144,wsize=262144,namlen=255,hard,proto=tcp,timeo=600,retrans=2,sec=sys,"
        + "clientaddr="
        + clientaddr
        + ",local_lock=none,addr=192.168.77.3";
  }

  @Test
  void nfsClientsDifferInTheirOwnAddressByNatureNotInTheirSettings() {
    assertThat(
            EnvironmentDiff.of(
                List.of(
                    nfsClient("node1", options("4.2", "192.168.77.1")),
                    nfsClient("node2", options("4.2", "192.168.77.2")))))
        .isEmpty();
    assertThat(
            EnvironmentDiff.of(
                List.of(
                    nfsClient("node1", options("4.2", "192.168.77.1")),
                    nfsClient("node2", options("4.1", "192.168.77.2")))))
        .singleElement()
        .asString()
        .startsWith("mount options differs: node1 ")
        .contains("vers=4.1");
  }
}
