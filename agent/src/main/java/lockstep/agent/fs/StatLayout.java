package lockstep.agent.fs;

import jnr.ffi.Pointer;

/**
 * Where Linux's {@code struct stat} keeps what {@link FileId} reads, per architecture: x86_64's own
 * layout, and the generic one of aarch64 (and riscv64), where {@code st_mode} comes before a 32-bit
 * {@code st_nlink}. {@code st_dev}, {@code st_ino} and {@code st_size} sit at the same offsets in
 * both.
 */
enum StatLayout {
  X86_64(24, 16, 8),
  GENERIC(16, 20, 4);

  private static final int DEV = 0;
  private static final int INO = 8;
  private static final int SIZE = 48;
  private static final int S_IFMT = 0170000;
  private static final int S_IFREG = 0100000;
  private static final int S_IFDIR = 0040000;

  private final int mode;
  private final int nlink;
  private final int nlinkBytes;

  StatLayout(int mode, int nlink, int nlinkBytes) {
    this.mode = mode;
    this.nlink = nlink;
    this.nlinkBytes = nlinkBytes;
  }

  private static final StatLayout CURRENT = of(System.getProperty("os.arch", ""));

  /** This machine's layout, decided once (fstat is called per file by some workloads). */
  static StatLayout current() {
    return CURRENT;
  }

  static StatLayout of(String arch) {
    return arch.equals("amd64") || arch.equals("x86_64") ? X86_64 : GENERIC;
  }

  /** The file's identity, type, link count and size from a {@code struct stat} filled by fstat. */
  FileId fileId(Pointer st) {
    int m = st.getInt(mode);
    long links = nlinkBytes == 8 ? st.getLong(nlink) : Integer.toUnsignedLong(st.getInt(nlink));
    return new FileId(
        st.getLong(DEV),
        st.getLong(INO),
        links,
        (m & S_IFMT) == S_IFREG,
        (m & S_IFMT) == S_IFDIR,
        st.getLong(SIZE));
  }
}
