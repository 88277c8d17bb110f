package lockstep.agent.workload;

import java.nio.file.Path;
import java.util.List;
import lockstep.agent.fs.AlignedBuffer;
import lockstep.agent.fs.Dir;
import lockstep.agent.fs.FileId;
import lockstep.agent.fs.Posix;
import lockstep.agent.fs.PosixException;
import lockstep.agent.fs.RootedPaths;
import lockstep.agent.v1.AccessPattern;
import lockstep.agent.v1.ReadWorkload;
import lockstep.agent.v1.WorkloadResult;

/**
 * fio-like read. At prepare the file is written ({@code size} bytes in 1 MiB writes), synced, its
 * cached pages dropped with posix_fadvise(POSIX_FADV_DONTNEED) (what fio's invalidate=1 does) and
 * opened O_RDONLY [|O_DIRECT]. The run preads {@code block-size} blocks, sequential or random,
 * split over {@code threads}. One op is one pread of a block.
 */
public final class ReadFileWorkload implements Workload {
  private static final int LAYOUT_CHUNK = 1 << 20;

  private final ReadWorkload spec;
  private final RootedPaths paths;
  private final Posix posix = Posix.get();
  private final Path file;
  private final CreatedDirs createdDirs;
  private final BlockIo io = new BlockIo();
  private final int threads;
  private FileId created;
  private int fd = -1;

  public ReadFileWorkload(ReadWorkload spec, RootedPaths paths) {
    this.spec = spec;
    this.paths = paths;
    this.threads = Math.max(1, spec.getThreads());
    this.file = paths.resolve("file", spec.getFile());
    this.createdDirs = new CreatedDirs(paths);
  }

  @Override
  public String opName() {
    return "read";
  }

  @Override
  public void prepare() {
    String path = file.toString();
    String name = file.getFileName().toString();
    try (Dir parent = createdDirs.createParentsOf(file)) {
      prepareIn(parent, name, path);
    }
    io.allocate(threads, spec.getBlockSizeBytes(), WriteFileWorkload.DIRECT_ALIGNMENT);
  }

  /**
   * Lays the file out (created with O_EXCL: never one the run did not make), then opens it for
   * reading.
   */
  private void prepareIn(Dir parent, String name, String path) {
    int w = parent.create(name, Posix.O_WRONLY, 0644);
    try {
      created = posix.fstat(w, path);
      AlignedBuffer chunk = posix.allocateAligned(LAYOUT_CHUNK, WriteFileWorkload.DIRECT_ALIGNMENT);
      chunk.fill((byte) 0x5a);
      for (long off = 0; off < spec.getSizeBytes(); off += LAYOUT_CHUNK) {
        posix.pwriteFully(w, chunk, Math.min(LAYOUT_CHUNK, spec.getSizeBytes() - off), off, path);
      }
      posix.fsync(w, path);
      posix.dropCache(w, path);
    } finally {
      posix.closeQuietly(w);
    }
    try {
      // Re-opened by name in the same directory descriptor: a regular file, one link, the one just
      // made.
      fd =
          parent.openRegular(
              name, Posix.O_RDONLY | (spec.getODirect() ? Posix.O_DIRECT : 0), created);
      posix.dropCache(fd, path);
    } catch (PosixException e) {
      throw BlockIo.explainDirect(
          e, spec.getODirect(), spec.getBlockSizeBytes(), WriteFileWorkload.DIRECT_ALIGNMENT);
    }
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
    return io.timed(
        startAtUnixNanos,
        opName(),
        fd,
        file.toString(),
        spec.getSizeBytes(),
        spec.getBlockSizeBytes(),
        spec.getPattern() == AccessPattern.ACCESS_PATTERN_RANDOM,
        spec.getSeed(),
        Posix::preadFully,
        e -> e,
        spec.getODirect(),
        paths);
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
