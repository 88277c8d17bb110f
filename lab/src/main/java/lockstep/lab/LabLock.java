package lockstep.lab;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The lab directory's lock (DIR/lock), held by one lab command at a time that changes the lab; the
 * file's channel is closed with the lock.
 */
final class LabLock implements AutoCloseable {
  private final FileChannel channel;
  private final FileLock lock;

  private LabLock(FileChannel channel, FileLock lock) {
    this.channel = channel;
    this.lock = lock;
  }

  /** Takes the lock, or refuses at once when another lab command holds it. */
  static LabLock take(Path dir) {
    FileChannel ch = null;
    try {
      Files.createDirectories(dir);
      ch =
          FileChannel.open(
              dir.resolve("lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
      FileLock l = ch.tryLock();
      if (l == null) {
        ch.close();
        throw new LabException("another lockstep lab command is running on " + dir);
      }
      return new LabLock(ch, l);
    } catch (IOException e) {
      if (ch != null) {
        try {
          ch.close();
        } catch (IOException ignored) {
          // the lock is what failed
        }
      }
      throw new LabException("cannot lock " + dir + ": " + e.getMessage());
    }
  }

  /**
   * Waits until no lab command holds the lock (returns at once when none does), without taking it
   * for longer than that: a caller that only reads the lab then sees it as that command left it,
   * not half made. Returns whether it had to wait.
   */
  static boolean awaitFree(Path dir) {
    if (!Files.isRegularFile(dir.resolve("lock"))) {
      return false;
    }
    try (FileChannel ch = FileChannel.open(dir.resolve("lock"), StandardOpenOption.WRITE)) {
      FileLock l = ch.tryLock();
      boolean waited = l == null;
      if (waited) {
        l = ch.lock(); // blocks until the other command's lock is released
      }
      l.release();
      return waited;
    } catch (IOException e) {
      throw new LabException("cannot lock " + dir + ": " + e.getMessage());
    }
  }

  @Override
  public void close() {
    try {
      lock.release();
    } catch (IOException e) {
      // the channel's close releases it as well
    }
    try {
      channel.close();
    } catch (IOException e) {
      // nothing is left to release
    }
  }
}
