package lockstep.agent.fs;

import java.util.concurrent.locks.LockSupport;
import java.util.function.LongConsumer;
import java.util.function.Supplier;
import jnr.constants.platform.Errno;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * Retries a walk that another client of a shared file system can briefly spoil. Two GlusterFS FUSE
 * clients making the same directory at once: one's mkdir answers EEXIST while its lookup of that
 * name still answers ENOENT (the other's mkdir has not finished), or a directory it opened a moment
 * ago is gone and answers ESTALE. {@code GlusterSharedDirectoriesIT} makes 300 chains from both
 * clients at once: a walk failed this way 2 to 10 times in each run, and every one succeeded when
 * walked again from the root after the first pause. Only ENOENT and ESTALE are retried, at most
 * {@link #ATTEMPTS} times with a doubling pause (under half a second in all); anything else, or the
 * last failure, is thrown as it was.
 */
public final class SharedNamespaceRetry {
  static final int ATTEMPTS = 10;
  static final long FIRST_PAUSE_NANOS = 1_000_000;
  static final long MAX_PAUSE_NANOS = 200_000_000;
  private static final Logger LOG = LogManager.getLogger(SharedNamespaceRetry.class);

  private final LongConsumer pause;

  SharedNamespaceRetry(LongConsumer pause) {
    this.pause = pause;
  }

  static SharedNamespaceRetry parking() {
    return new SharedNamespaceRetry(LockSupport::parkNanos);
  }

  /**
   * {@code walk}'s result, walking again while it fails with ENOENT or ESTALE, at most {@link
   * #ATTEMPTS} times.
   */
  <T> T get(String what, Supplier<T> walk) {
    long pauseNanos = FIRST_PAUSE_NANOS;
    for (int attempt = 1; ; attempt++) {
      try {
        return walk.get();
      } catch (PosixException e) {
        if (attempt == ATTEMPTS || !(e.is(Errno.ENOENT) || e.is(Errno.ESTALE))) {
          throw e;
        }
        LOG.debug(
            "{}: {} (attempt {} of {}; another node may be making the same path), walking again",
            what,
            e.getMessage(),
            attempt,
            ATTEMPTS);
        pause.accept(pauseNanos);
        pauseNanos = Math.min(pauseNanos * 2, MAX_PAUSE_NANOS);
      }
    }
  }
}
