package lockstep.agent.fs;

/** What fstat(2) says about an open file: identity (device, inode), link count, type and size. */
public record FileId(
    long dev, long ino, long links, boolean regular, boolean directory, long size) {
  /** Same file (device and inode) as {@code other}. */
  public boolean sameFile(FileId other) {
    return other != null && dev == other.dev && ino == other.ino;
  }
}
