package lockstep.agent.workload;

import lockstep.agent.fs.AlignedBuffer;
import lockstep.agent.fs.Dir;
import lockstep.agent.fs.Posix;
import lockstep.agent.fs.PosixException;
import lockstep.agent.fs.RootedPaths;
import lockstep.agent.v1.ReadWorkload;

/**
 * fio-like read. At prepare the file is written ({@code size} bytes in 1 MiB writes), synced, its
 * cached pages dropped with posix_fadvise(POSIX_FADV_DONTNEED) (what fio's invalidate=1 does) and
 * opened O_RDONLY [|O_DIRECT]. The run preads {@code block-size} blocks, sequential or random,
 * split over {@code threads}. One op is one pread of a block.
 */
public final class ReadFileWorkload extends BlockFileWorkload {
  private static final int LAYOUT_CHUNK = 1 << 20;

  public ReadFileWorkload(ReadWorkload spec, RootedPaths paths) {
    super(Blocks.of(spec), paths);
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
    allocateBuffers();
  }

  /**
   * Lays the file out (created with O_EXCL: never one the run did not make), then opens it for
   * reading.
   */
  private void prepareIn(Dir parent, String name, String path) {
    int w = parent.create(name, Posix.O_WRONLY, 0644);
    try {
      created = posix.fstat(w, path);
      AlignedBuffer chunk = posix.allocateAligned(LAYOUT_CHUNK, DIRECT_ALIGNMENT);
      chunk.fill((byte) 0x5a);
      long size = blocks.sizeBytes();
      for (long off = 0; off < size; off += LAYOUT_CHUNK) {
        posix.pwriteFully(w, chunk, Math.min(LAYOUT_CHUNK, size - off), off, path);
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
              name, Posix.O_RDONLY | (blocks.direct() ? Posix.O_DIRECT : 0), created);
      posix.dropCache(fd, path);
    } catch (PosixException e) {
      throw explained(e);
    }
  }

  @Override
  protected BlockIo.Call call() {
    return Posix::preadFully;
  }
}
