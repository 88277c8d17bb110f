package lockstep.agent.workload;

import java.nio.file.Path;
import java.util.List;
import lockstep.agent.fs.FileId;
import lockstep.agent.fs.Posix;
import lockstep.agent.fs.PosixException;
import lockstep.agent.fs.RootedPaths;
import lockstep.agent.v1.AccessPattern;
import lockstep.agent.v1.ReadWorkload;
import lockstep.agent.v1.WorkloadResult;
import lockstep.agent.v1.WriteWorkload;
import lockstep.common.WorkloadValidator;

/**
 * A workload that moves one file in whole blocks with threads of the agent (write, read; the calls
 * are {@link BlockIo}'s): the file beneath the root and the directories made for it, its open
 * descriptor and what it was created as, progress, the measured run, abort and cleanup. A subclass
 * makes and opens the file at prepare and names the call on each block and what follows the last.
 */
abstract class BlockFileWorkload implements Workload {
  static final int DIRECT_ALIGNMENT = WorkloadValidator.DIRECT_ALIGNMENT;

  /**
   * The fields the write and read messages both carry.
   *
   * @param random blocks in a seeded random order (each once), else sequential
   */
  record Blocks(
      String file,
      long sizeBytes,
      int blockSizeBytes,
      boolean direct,
      boolean random,
      long seed,
      int threads) {

    static Blocks of(WriteWorkload w) {
      return new Blocks(
          w.getFile(),
          w.getSizeBytes(),
          w.getBlockSizeBytes(),
          w.getODirect(),
          w.getPattern() == AccessPattern.ACCESS_PATTERN_RANDOM,
          w.getSeed(),
          w.getThreads());
    }

    static Blocks of(ReadWorkload r) {
      return new Blocks(
          r.getFile(),
          r.getSizeBytes(),
          r.getBlockSizeBytes(),
          r.getODirect(),
          r.getPattern() == AccessPattern.ACCESS_PATTERN_RANDOM,
          r.getSeed(),
          r.getThreads());
    }
  }

  protected final Blocks blocks;
  protected final RootedPaths paths;
  protected final Posix posix = Posix.get();
  protected final Path file;
  protected final CreatedDirs createdDirs;
  protected final BlockIo io = new BlockIo();
  protected int fd = -1;
  protected FileId created;

  BlockFileWorkload(Blocks blocks, RootedPaths paths) {
    this.blocks = blocks;
    this.paths = paths;
    this.file = paths.resolve("file", blocks.file());
    this.createdDirs = new CreatedDirs(paths);
  }

  /** One aligned buffer per thread, allocated (and touched) at prepare. */
  protected void allocateBuffers() {
    io.allocate(Math.max(1, blocks.threads()), blocks.blockSizeBytes(), DIRECT_ALIGNMENT);
  }

  /** {@code e}, explained when it is an O_DIRECT refusal. */
  protected PosixException explained(PosixException e) {
    return BlockIo.explainDirect(e, blocks.direct(), blocks.blockSizeBytes(), DIRECT_ALIGNMENT);
  }

  /** The call on each block: pwrite or pread. */
  protected abstract BlockIo.Call call();

  /** What follows the last block inside the measured time; returns the first error. */
  protected PosixException finish(PosixException blockError) {
    return blockError;
  }

  @Override
  public List<String> paths() {
    return List.of(paths.relative(file));
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
        startAtUnixNanos, opName(), fd, file.toString(), blocks, call(), this::finish, paths);
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
