package lockstep.agent.workload;

import lockstep.agent.fs.Dir;
import lockstep.agent.fs.Posix;
import lockstep.agent.fs.PosixException;
import lockstep.agent.fs.RootedPaths;
import lockstep.agent.v1.WriteWorkload;

/**
 * dd/fio-like write: open(O_WRONLY|O_CREAT|O_EXCL [|O_DIRECT][|O_SYNC]) beneath the root at prepare
 * (a file already at the path is refused, never truncated), then pwrite(2) of {@code block-size}
 * zero bytes at each block's offset until {@code size} (sequential or random order, split over
 * {@code threads}), then fdatasync(2) if asked, all inside the measured time. One op is one pwrite
 * call of a full block.
 */
public final class WriteFileWorkload extends BlockFileWorkload {
  private final WriteWorkload spec;

  public WriteFileWorkload(WriteWorkload spec, RootedPaths paths) {
    super(Blocks.of(spec), paths);
    this.spec = spec;
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
      throw explained(e);
    }
    allocateBuffers();
  }

  @Override
  protected BlockIo.Call call() {
    return Posix::pwriteFully;
  }

  /**
   * fdatasync (when asked, and only after a complete write) and close, inside the measured time;
   * the first error wins.
   */
  @Override
  protected PosixException finish(PosixException error) {
    String path = file.toString();
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
}
