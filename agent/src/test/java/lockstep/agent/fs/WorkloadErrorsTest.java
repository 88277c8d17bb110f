package lockstep.agent.fs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import lockstep.agent.v1.WorkloadError;
import org.junit.jupiter.api.Test;

/** WorkloadErrors travel worker -> agent -> coordinator without losing or mangling their text. */
class WorkloadErrorsTest {
  private static final Path ROOT = Path.of("/mnt/cfs/lockstep");

  @Test
  void pathsBecomeRelativeAndContextSitsBeforeTheDetail() {
    PosixException e = Posix.error("open", "/mnt/cfs/lockstep/d/test-0-40", 21);
    WorkloadError w = WorkloadErrors.of(e, ROOT, "failed after 40 files");
    assertThat(w.getPath()).isEqualTo("d/test-0-40");
    assertThat(e.detail()).startsWith("EISDIR (");
    assertThat(w.getMessage()).isEqualTo("open d/test-0-40 failed after 40 files: " + e.detail());
    assertThat(WorkloadErrors.of(Posix.error("open", "/elsewhere/f", 21), ROOT, "").getPath())
        .isEqualTo("/elsewhere/f");
  }

  @Test
  void aWorkersErrorBecomesTheSameExceptionAgain() {
    PosixException e = Posix.error("open", "/mnt/cfs/lockstep/d/f: odd name", 13);
    PosixException back =
        WorkloadErrors.asException(
            WorkloadErrors.of(e, ROOT, "after 3 files"), "/mnt/cfs/lockstep/d");
    assertThat(back.detail()).isEqualTo(e.detail());
    assertThat(back.errnoName()).isEqualTo("EACCES");
    assertThat(back.getMessage()).isEqualTo("open d/f: odd name: " + e.detail());
  }

  @Test
  void aWorkersOwnMessageIsKeptWhole() {
    WorkloadError w =
        WorkloadError.newBuilder()
            .setOperation("setrlimit(RLIMIT_NOFILE)")
            .setErrnoName("EMFILE")
            .setMessage("each process needs 564 open files but the hard limit RLIMIT_NOFILE is 300")
            .build();
    PosixException back = WorkloadErrors.asException(w, "/mnt/cfs/lockstep/d");
    assertThat(back.getMessage())
        .isEqualTo(
            "setrlimit(RLIMIT_NOFILE) /mnt/cfs/lockstep/d: each process needs 564 open files but"
                + " the hard limit RLIMIT_NOFILE is 300");
  }
}
