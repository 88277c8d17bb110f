package lockstep.coordinator.launch;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A started program's stdout and stderr, read while it runs so that it never stops on a full pipe,
 * after it was given its stdin. Shared by the lab's host commands and by ssh.
 */
public final class ChildOutput {
  private final CompletableFuture<String> stdout;
  private final CompletableFuture<String> stderr;

  private ChildOutput(Process p) {
    stdout = drain(p.getInputStream());
    stderr = drain(p.getErrorStream());
  }

  /** Starts reading {@code p}'s output, then writes {@code stdin} to it and closes it. */
  public static ChildOutput feed(Process p, String stdin) {
    ChildOutput output = new ChildOutput(p);
    try (OutputStream in = p.getOutputStream()) {
      in.write(stdin.getBytes(StandardCharsets.UTF_8));
    } catch (IOException e) {
      // the program ended early; its exit status and stderr tell why
    }
    return output;
  }

  /** All of stdout, waiting at most {@code seconds} for it once the program has ended. */
  public String stdout(long seconds)
      throws InterruptedException, ExecutionException, TimeoutException {
    return stdout.get(seconds, TimeUnit.SECONDS);
  }

  /** All of stderr, as {@link #stdout(long)}. */
  public String stderr(long seconds)
      throws InterruptedException, ExecutionException, TimeoutException {
    return stderr.get(seconds, TimeUnit.SECONDS);
  }

  private static CompletableFuture<String> drain(InputStream s) {
    return CompletableFuture.supplyAsync(
        () -> {
          try (s) {
            return new String(s.readAllBytes(), StandardCharsets.UTF_8);
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        });
  }
}
