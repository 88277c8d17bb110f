package lockstep.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The lab directory's lock as another process (a lab command) holds it: fcntl, as Java's. */
class LabLockTest {
  @TempDir Path dir;

  @Test
  void awaitFreeReturnsAtOnceWithoutACommandAndWaitsForOneThatHoldsTheLock() throws Exception {
    assertThat(LabLock.awaitFree(dir)).as("no lock file yet").isFalse();
    LabLock.take(dir).close();
    assertThat(LabLock.awaitFree(dir)).as("nobody holds it").isFalse();

    Process holder = holdFor(dir.resolve("lock"), 1.5);
    try {
      long t0 = System.nanoTime();
      assertThatThrownBy(() -> LabLock.take(dir))
          .isInstanceOf(LabException.class)
          .hasMessageContaining("another lockstep lab command is running on " + dir);
      assertThat(LabLock.awaitFree(dir)).isTrue();
      double waited = (System.nanoTime() - t0) / 1e9;
      assertThat(waited).as("waited until the holder let go").isBetween(0.5, 10.0);
      assertThat(holder.waitFor(10, TimeUnit.SECONDS)).isTrue();
      LabLock.take(dir).close(); // free again, and nothing was left holding it
    } finally {
      holder.destroyForcibly();
    }
  }

  /** A process that locks {@code file} as fcntl does, says so, and holds it {@code seconds}. */
  private static Process holdFor(Path file, double seconds) throws Exception {
    Process p =
        new ProcessBuilder(
                "python3",
                "-c",
                "import fcntl,sys,time\n"
                    + "f=open(sys.argv[1],'w')\n"
                    + "fcntl.lockf(f,fcntl.LOCK_EX)\n"
                    + "print('locked',flush=True)\n"
                    + "time.sleep(float(sys.argv[2]))\n",
                file.toString(),
                Double.toString(seconds))
            .redirectErrorStream(true)
            .start();
    BufferedReader out =
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
    assertThat(out.readLine()).isEqualTo("locked");
    assertThat(Files.exists(file)).isTrue();
    return p;
  }
}
