package lockstep.agent.fs;

import static org.assertj.core.api.Assertions.assertThat;

import jnr.ffi.Memory;
import jnr.ffi.Pointer;
import jnr.ffi.Runtime;
import org.junit.jupiter.api.Test;

/**
 * struct stat as the two layouts lay it out (x86_64's is also read from the kernel in PosixTest).
 */
class StatLayoutTest {
  private final Pointer st = Memory.allocateDirect(Runtime.getSystemRuntime(), 256, true);

  @Test
  void theArchitectureChoosesTheLayout() {
    assertThat(StatLayout.of("amd64")).isEqualTo(StatLayout.X86_64);
    assertThat(StatLayout.of("aarch64")).isEqualTo(StatLayout.GENERIC);
    assertThat(StatLayout.of("riscv64")).isEqualTo(StatLayout.GENERIC);
  }

  @Test
  void aarch64KeepsTheModeBeforeA32BitLinkCount() {
    st.putLong(0, 0x803L); // st_dev
    st.putLong(8, 4242L); // st_ino
    st.putInt(16, 0040755); // st_mode: a directory
    st.putInt(20, 3); // st_nlink
    st.putLong(48, 4096L); // st_size
    FileId id = StatLayout.GENERIC.fileId(st);
    assertThat(id).isEqualTo(new FileId(0x803L, 4242L, 3, false, true, 4096L));
  }

  @Test
  void x86_64KeepsA64BitLinkCountBeforeTheMode() {
    st.putLong(0, 0x10302L);
    st.putLong(8, 77L);
    st.putLong(16, 1L); // st_nlink
    st.putInt(24, 0100644); // st_mode: a regular file
    st.putLong(48, 12345L);
    FileId id = StatLayout.X86_64.fileId(st);
    assertThat(id).isEqualTo(new FileId(0x10302L, 77L, 1, true, false, 12345L));
  }
}
