package lockstep.agent.workload;

import static lockstep.agent.workload.FileSpecs.read;
import static lockstep.agent.workload.FileSpecs.write;
import static lockstep.agent.workload.WorkloadResults.assertFailedOn;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import lockstep.agent.fs.PosixException;
import lockstep.agent.v1.HotLockWorkload;
import lockstep.agent.v1.LockFilesWorkload;
import lockstep.agent.v1.LockKind;
import lockstep.agent.v1.MetadataOp;
import lockstep.agent.v1.MetadataWorkload;
import lockstep.agent.v1.WorkloadResult;
import lockstep.common.WallClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The attacks of issue 11 against real workloads: links and files planted where a run writes, after
 * the path was checked at scenario time. Each must be refused with the path named, and a checksum
 * of everything outside the root must not change.
 */
class RootConfinementTest extends TempRootTest {
  @TempDir Path outside;
  private String before;

  @BeforeEach
  void outsideFiles() throws Exception {
    Files.writeString(outside.resolve("precious"), "the user's data\n");
    Files.createDirectories(outside.resolve("dir"));
    Files.writeString(outside.resolve("dir/other"), "more data\n");
    before = checksum(outside);
  }

  @AfterEach
  void outsideUnchanged() throws Exception {
    assertThat(checksum(outside)).as("files outside the root").isEqualTo(before);
  }

  /** SHA-256 over every name, type and content below {@code dir} (links not followed). */
  static String checksum(Path dir) throws Exception {
    MessageDigest md = MessageDigest.getInstance("SHA-256");
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : s.sorted().toList()) {
        md.update(dir.relativize(p).toString().getBytes());
        if (Files.isSymbolicLink(p)) {
          md.update(("->" + Files.readSymbolicLink(p)).getBytes());
        } else if (Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
          md.update(Files.readAllBytes(p));
        }
      }
    }
    return HexFormat.of().formatHex(md.digest());
  }

  @Test
  void danglingSymlinkAtTheWriteTargetIsRefusedAndNothingIsCreatedOutside() throws Exception {
    Files.createSymbolicLink(root.resolve("out"), outside.resolve("created-by-attack"));
    WriteFileWorkload w = new WriteFileWorkload(write("out").build(), paths());
    assertThatThrownBy(w::prepare)
        .isInstanceOf(PosixException.class)
        .hasMessageContaining(root.toRealPath().resolve("out").toString())
        .hasMessageContaining("EEXIST")
        .hasMessageContaining("did not create");
    assertThat(w.cleanup().filesRemoved()).isZero();
    assertThat(outside.resolve("created-by-attack")).doesNotExist();
    assertThat(root.resolve("out")).isSymbolicLink();
  }

  @Test
  void hardLinkToAnOutsideFileIsNeitherOverwrittenNorRemoved() throws Exception {
    Files.createLink(root.resolve("out"), outside.resolve("precious"));
    WriteFileWorkload w = new WriteFileWorkload(write("out").build(), paths());
    assertThatThrownBy(w::prepare).hasMessageContaining("EEXIST");
    w.cleanup();
    ReadFileWorkload r = new ReadFileWorkload(read("out").build(), paths());
    assertThatThrownBy(r::prepare).hasMessageContaining("EEXIST");
    r.cleanup();
    assertThat(root.resolve("out")).exists();
  }

  @Test
  void aPreExistingFileAtTheWritePathIsRefusedAndKeptAsItWas() throws Exception {
    Files.writeString(root.resolve("out"), "a user's file");
    WriteFileWorkload w = new WriteFileWorkload(write("out").build(), paths());
    assertThatThrownBy(w::prepare)
        .isInstanceOf(PosixException.class)
        .hasMessageContaining("left untouched");
    assertThat(w.cleanup().filesRemoved()).isZero();
    assertThat(Files.readString(root.resolve("out"))).isEqualTo("a user's file");
  }

  @Test
  void aDirectorySwappedForASymlinkAfterTheScenarioCheckIsNotFollowed() throws Exception {
    Files.createDirectories(root.resolve("sub"));
    WriteFileWorkload w = new WriteFileWorkload(write("sub/out").build(), paths());
    Files.delete(root.resolve("sub"));
    Files.createSymbolicLink(root.resolve("sub"), outside.resolve("dir"));
    assertThatThrownBy(w::prepare)
        .isInstanceOf(PosixException.class)
        .hasMessageContaining("symbolic link");
    w.cleanup();
    assertThat(outside.resolve("dir/out")).doesNotExist();
  }

  @Test
  void cleanupDoesNotRemoveAFileSwappedInAfterPrepare() throws Exception {
    WriteFileWorkload w = new WriteFileWorkload(write("out").build(), paths());
    w.prepare();
    Files.delete(root.resolve("out"));
    Files.writeString(root.resolve("out"), "replaced");
    CleanupReport c = w.cleanup();
    assertThat(c.filesRemoved()).isZero();
    assertThat(c.leftovers()).singleElement().asString().contains("out").contains("left untouched");
    assertThat(Files.readString(root.resolve("out"))).isEqualTo("replaced");
  }

  @Test
  void symlinksPlantedAtLockFileNamesAreRefusedAtPrepare() throws Exception {
    Files.createDirectories(root.resolve("locks"));
    for (int i = 0; i < 5; i++) {
      Files.createSymbolicLink(root.resolve("locks/test-0-" + i), outside.resolve("lock-" + i));
    }
    assertLockFilesPrepareRefuses("locks/test-0-");
    assertThat(outside.resolve("lock-0")).doesNotExist();
    assertThat(root.resolve("locks/test-0-4")).isSymbolicLink();
  }

  @Test
  void aLinkPlantedAtAWarmUpScratchNameIsRefusedAtPrepareToo() throws Exception {
    Files.createDirectories(root.resolve("locks"));
    Files.createSymbolicLink(root.resolve("locks/.warmup-test-0-399"), outside.resolve("scratch"));
    Files.writeString(
        root.resolve("locks/.warmup-test-0-400"),
        "not a scratch name (400 and up): kept, not refused");
    assertLockFilesPrepareRefuses("locks/.warmup-test-0-399");
    assertThat(outside.resolve("scratch")).doesNotExist();
    assertThat(root.resolve("locks/.warmup-test-0-399")).isSymbolicLink();
    assertThat(root.resolve("locks/.warmup-test-0-400")).exists();
  }

  @Test
  void symlinksPlantedPerFileAfterPrepareAreNotFollowedByTheWorkers() throws Exception {
    LockFilesProcesses w = new LockFilesProcesses(lockFiles(), paths());
    try {
      w.prepare();
      for (int i = 0; i < 5; i++) {
        Files.createSymbolicLink(root.resolve("locks/test-0-" + i), outside.resolve("lock-" + i));
      }
      WorkloadResult r = w.run(WallClock.nowNanos()).build();
      assertFailedOn(r, "EEXIST", "locks/test-0-0");
    } finally {
      w.cleanup();
    }
    for (int i = 0; i < 5; i++) {
      assertThat(outside.resolve("lock-" + i)).doesNotExist();
      assertThat(root.resolve("locks/test-0-" + i)).isSymbolicLink();
    }
  }

  @Test
  void aLockFilesDirectorySwappedForASymlinkIsRefused() throws Exception {
    LockFilesProcesses w = new LockFilesProcesses(lockFiles(), paths());
    Files.createSymbolicLink(root.resolve("locks"), outside.resolve("dir"));
    try {
      assertThatThrownBy(w::prepare).hasMessageContaining("symbolic link");
    } finally {
      w.cleanup();
    }
  }

  @Test
  void sharedFilesMustBeRegularWithOneLinkAndAreRemovedOnlyByTheirMaker() throws Exception {
    HotLockWorkload spec =
        HotLockWorkload.newBuilder()
            .setFile("hot")
            .setProcesses(1)
            .setThreads(1)
            .setDurationMillis(50)
            .setLock(LockKind.LOCK_KIND_FCNTL)
            .build();
    Files.createLink(root.resolve("hot"), outside.resolve("precious"));
    HotLockProcesses w = new HotLockProcesses(spec, paths());
    try {
      assertThatThrownBy(w::prepare).hasMessageContaining("hard links");
    } finally {
      assertThat(w.cleanup().filesRemoved()).isZero();
    }
    Files.delete(root.resolve("hot"));
    Files.writeString(root.resolve("hot"), "");
    HotLockProcesses again = new HotLockProcesses(spec, paths());
    try {
      again.prepare();
    } finally {
      assertThat(again.cleanup().filesRemoved()).as("a file this node did not make").isZero();
    }
    assertThat(root.resolve("hot")).exists();
  }

  @Test
  void metadataRefusesItsNamesAlreadyPresentAndLeavesThem() throws Exception {
    Files.createDirectories(root.resolve("md"));
    Files.writeString(root.resolve("md/n1-t0-f3"), "the user's");
    MetadataOpsWorkload w =
        new MetadataOpsWorkload(
            MetadataWorkload.newBuilder()
                .setDir("md")
                .setFiles(10)
                .addAllOps(List.of(MetadataOp.METADATA_OP_CREATE, MetadataOp.METADATA_OP_UNLINK))
                .build(),
            paths());
    try {
      assertThatThrownBy(w::prepare)
          .hasMessageContaining("md/n1-t0-f3")
          .hasMessageContaining("EEXIST");
    } finally {
      assertThat(w.cleanup().filesRemoved()).isZero();
    }
    assertThat(Files.readString(root.resolve("md/n1-t0-f3"))).isEqualTo("the user's");
  }

  /**
   * Lock-files' prepare meets what was planted at {@code planted}: EEXIST naming it, and its
   * cleanup removes nothing.
   */
  private void assertLockFilesPrepareRefuses(String planted) {
    LockFilesProcesses w = new LockFilesProcesses(lockFiles(), paths());
    try {
      assertThatThrownBy(w::prepare)
          .isInstanceOf(PosixException.class)
          .hasMessageContaining(planted)
          .hasMessageContaining("EEXIST");
    } finally {
      assertThat(w.cleanup().filesRemoved()).isZero();
    }
  }

  private static LockFilesWorkload lockFiles() {
    return LockFilesWorkload.newBuilder()
        .setDir("locks")
        .setProcesses(1)
        .setFiles(5)
        .setLock(LockKind.LOCK_KIND_FCNTL)
        .build();
  }
}
