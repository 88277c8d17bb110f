package lockstep.agent.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The real calls: a failing lock names the exact fcntl command, and block I/O round-trips. */
class PosixTest {
    private final Posix posix = Posix.get();

    @TempDir
    Path dir;

    private int closedFd() {
        String f = dir.resolve("closed").toString();
        int fd = posix.open(f, Posix.O_RDWR | Posix.O_CREAT, 0644);
        posix.close(fd, f);
        return fd;
    }

    @Test
    void aFailedLockNamesTheCommandAndErrno() {
        int fd = closedFd();
        assertThatThrownBy(() -> posix.acquire(fd, new LockMode(LockCall.FCNTL, true, true), 0, 0, "f", () -> true))
                .isInstanceOfSatisfying(PosixException.class, e -> {
                    assertThat(e.operation()).isEqualTo("fcntl(F_SETLKW, F_WRLCK)");
                    assertThat(e.errnoName()).isEqualTo("EBADF");
                });
        assertThatThrownBy(() -> posix.lockRange(fd, new LockMode(LockCall.OFD, false, false), 3, 1, "f"))
                .isInstanceOfSatisfying(PosixException.class, e -> assertThat(e.operation()).isEqualTo("fcntl(F_OFD_SETLK, F_RDLCK)"));
        assertThatThrownBy(() -> posix.release(fd, new LockMode(LockCall.FLOCK, true, true), 0, 0, "f"))
                .isInstanceOfSatisfying(PosixException.class, e -> assertThat(e.operation()).isEqualTo("flock(LOCK_UN)"));
    }

    @Test
    void blocksWrittenAtAnOffsetReadBack() {
        String f = dir.resolve("blocks").toString();
        int fd = posix.open(f, Posix.O_RDWR | Posix.O_CREAT, 0644);
        try {
            AlignedBuffer out = posix.allocateAligned(4096, 4096);
            out.fill((byte) 7);
            assertThat(posix.pwriteFully(fd, out, 4096, 8192, f)).isEqualTo(4096);
            AlignedBuffer in = posix.allocateAligned(4096, 4096);
            assertThat(posix.preadFully(fd, in, 4096, 8192, f)).isEqualTo(4096);
            assertThat(in.getByte(0)).isEqualTo((byte) 7);
            assertThat(in.getByte(4095)).isEqualTo((byte) 7);
            assertThatThrownBy(() -> posix.preadFully(fd, in, 4096, 12288, f)).hasMessageContaining("end of file at offset 12288");
        } finally {
            posix.closeQuietly(fd);
        }
    }
}
