package lockstep.coordinator.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The owner id is made once per user, kept private, and read back the same by every later process.
 */
class OwnerIdsTest {
  @TempDir Path home;

  @Test
  void isMadeOnceWithOwnerOnlyPermissionsAndReadBackTheSame() throws Exception {
    Path dir = home.resolve(".lockstep");
    String first = OwnerIds.load(dir);
    assertThat(first).matches("[0-9a-f]{32}");
    assertThat(OwnerIds.load(dir)).isEqualTo(first);
    Path file = dir.resolve(OwnerIds.FILE);
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
        .isEqualTo("rw-------");
    try (var s = Files.list(dir)) {
      assertThat(s.toList()).containsExactly(file);
    }
  }

  @Test
  void aDamagedFileIsRefusedNotReplaced() throws Exception {
    Files.writeString(home.resolve(OwnerIds.FILE), "not an id\n");
    assertThatThrownBy(() -> OwnerIds.load(home))
        .hasMessageContaining("not 32 lower-case hex digits");
    assertThat(Files.readString(home.resolve(OwnerIds.FILE))).isEqualTo("not an id\n");
  }

  @Test
  void differentUsersGetDifferentIds() throws Exception {
    assertThat(OwnerIds.load(home.resolve("alice")))
        .isNotEqualTo(OwnerIds.load(home.resolve("bob")));
  }
}
