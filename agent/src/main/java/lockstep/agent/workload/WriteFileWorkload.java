package lockstep.agent.workload;

import java.nio.file.Path;
import java.util.List;
import lockstep.agent.fs.Dir;
import lockstep.agent.fs.FileId;
import lockstep.agent.fs.Posix;
import lockstep.agent.fs.PosixException;
import lockstep.agent.fs.RootedPaths;
import lockstep.agent.v1.AccessPattern;
import lockstep.agent.v1.WorkloadResult;
import lockstep.agent.v1.WriteWorkload;
import lockstep.common.WorkloadValidator;

/**
 * dd/fio-like write: open(O_WRONLY|O_CREAT|O_EXCL [|O_DIRECT][|O_SYNC]) beneath the root at prepare
 * (a file already at the path is refused, never truncated), then pwrite(2) of {@code block-size}
 * zero bytes at each block's offset until {@code size} (sequential or random order, split over
 * {@code threads}), then fdatasync(2) if asked, all inside the measured time. One op is one pwrite
 * call of a full block.
 */
public final class WriteFileWorkload implements Workload {
  static final int DIRECT_ALIGNMENT = WorkloadValidator.DIRECT_ALIGNMENT;

  private final WriteWorkload spec;
  private final RootedPaths paths;
  private final Posix posix = Posix.get();
  private final Path file;
  private final CreatedDirs createdDirs;
  private final BlockIo io = new BlockIo();
  private final int threads;
  private int fd = -1;
  private FileId created;

  public WriteFileWorkload(WriteWorkload spec, RootedPaths paths) {
    this.spec = spec;
    this.paths = paths;
    this.threads = Math.max(1, spec.getThreads());
    this.file = paths.resolve("file", spec.getFile());
    this.createdDirs = new CreatedDirs(paths);
  }

  @Override
  public String opName() {
    return "write";
  }

  @Override
  public void prepare() {
    int flags =
        Posix.O_WRONLY
            | (spec.getODirect() ? Posix.O_DIRECT : 0)
            | (spec.getOSync() ? Posix.O_SYNC : 0);
    try (Dir parent = createdDirs.createParentsOf(file)) {
      fd = parent.create(file.getFileName().toString(), flags, 0644);
      created = posix.fstat(fd, file.toString());
    } catch (PosixException e) {
      throw BlockIo.explainDirect(e, spec.getODirect(), spec.getBlockSizeBytes(), DIRECT_ALIGNMENT);
    }
    io.allocate(threads, spec.getBlockSizeBytes(), DIRECT_ALIGNMENT);
  }

  @Override
  public List<String> paths() {
    return List.of(paths.relative(file));
  }

  @Override
  public List<Long> workerPids() {
    return List.of();
  }

  @Override
  public long opsSoFar() {
    return io.ops();
  }

  @Override
  public long bytesSoFar() {
    return io.bytes();
  }

  @Override
  public WorkloadResult.Builder run(long startAtUnixNanos) {
    String path = file.toString();
    return io.timed(
        startAtUnixNanos,
        opName(),
        fd,
        path,
        spec.getSizeBytes(),
        spec.getBlockSizeBytes(),
        spec.getPattern() == AccessPattern.ACCESS_PATTERN_RANDOM,
        spec.getSeed(),
        Posix::pwriteFully,
        error -> syncAndClose(error, path),
        spec.getODirect(),
        paths);
  }

  /**
   * fdatasync (when asked, and only after a complete write) and close, inside the measured time;
   * the first error wins.
   */
  private PosixException syncAndClose(PosixException error, String path) {
    try {
      if (error == null && spec.getFdatasync() && !io.stopped()) {
        posix.fdatasync(fd, path);
      }
      int closing = fd;
      fd = -1;
      posix.close(closing, path);
    } catch (PosixException e) {
      return error == null ? e : error;
    }
    return error;
  }

  @Override
  public void abort() {
    io.stop();
  }

  @Override
  public CleanupReport cleanup() {
    posix.closeQuietly(fd);
    fd = -1;
    return CreatedFile.remove(file, created, createdDirs, paths);
  }
}
