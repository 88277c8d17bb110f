package lockstep.agent.fs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class MountInfoTest {
  private static final List<String> LINES =
      List.of(
          "22 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw,errors=remount-ro",
          "40 22 0:40 / /mnt/gluster\\040vol rw,relatime shared:20 - fuse.glusterfs 127.0.0.1:/gv0"
              + " rw,user_id=0,group_id=0",
          "41 22 8:17 / /mnt/ocfs2 rw,relatime - ocfs2 /dev/sdb1 rw,localalloc=16,data=writeback");

  @Test
  void longestMountPointWins() {
    MountInfo m = MountInfo.find(LINES, Path.of("/mnt/ocfs2/lockstep")).orElseThrow();
    assertThat(m.fsType()).isEqualTo("ocfs2");
    assertThat(m.options()).contains("localalloc=16");
    assertThat(MountInfo.find(LINES, Path.of("/home/x")).orElseThrow().fsType()).isEqualTo("ext4");
  }

  @Test
  void unescapesSpacesInMountPoints() {
    MountInfo m = MountInfo.find(LINES, Path.of("/mnt/gluster vol/data")).orElseThrow();
    assertThat(m.fsType()).isEqualTo("fuse.glusterfs");
    assertThat(m.source()).isEqualTo("127.0.0.1:/gv0");
  }

  @Test
  void readsThisMachine() {
    assertThat(MountInfo.of(Path.of("/"))).isPresent();
  }
}
