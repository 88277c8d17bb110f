package lockstep.agent.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import jnr.ffi.Pointer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The name in native memory is the String name, and the open through it is the real openat. */
class NumberedNameTest {
  private static final int CREATE = Posix.O_RDWR | Posix.O_CREAT | Posix.O_EXCL | Posix.O_CLOEXEC;
  private final Posix posix = Posix.get();

  @TempDir Path dir;

  private static String at(long address) {
    return Pointer.wrap(Posix.get().runtime(), address).getString(0);
  }

  @Test
  void theBytesAtTheAddressAreTheStringName() {
    NumberedName names = new NumberedName("n1-w3-");
    // a long number then a short one: the NUL ends the short one
    for (int i : new int[] {0, 7, 10, 99, 1000, 7, 123_456_789, Integer.MAX_VALUE, 3}) {
      assertThat(at(names.address(i))).isEqualTo(names.name(i)).isEqualTo("n1-w3-" + i);
    }
    assertThat(at(new NumberedName("").address(42))).isEqualTo("42");
    assertThat(at(new NumberedName("é-").address(5))).isEqualTo("é-5");
    assertThatThrownBy(() -> names.address(-1)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void openatCreatesTheNumberedFileAndAFailureNamesItsPath() throws Exception {
    NumberedName names = new NumberedName("f");
    try (RootDir root = RootDir.open(dir);
        Dir d = root.dir(Path.of(""))) {
      for (int i : new int[] {0, 12, 3}) {
        posix.close(posix.openat(d.fd(), names, i, CREATE, 0644, dir.toString()), null);
      }
      assertThat(Files.exists(dir.resolve("f0"))).isTrue();
      assertThat(Files.exists(dir.resolve("f12"))).isTrue();
      assertThat(Files.exists(dir.resolve("f3"))).isTrue();
      // O_EXCL on an existing name: the failed call is made again with errno saved
      assertThatThrownBy(() -> posix.openat(d.fd(), names, 12, CREATE, 0644, dir.toString()))
          .isInstanceOfSatisfying(
              PosixException.class,
              e -> {
                assertThat(e.errnoName()).isEqualTo("EEXIST");
                assertThat(e.path()).isEqualTo(dir + "/f12");
              });
    }
  }
}
