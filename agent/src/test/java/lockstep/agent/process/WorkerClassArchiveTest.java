package lockstep.agent.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WorkerClassArchiveTest {
  @TempDir Path tmp;
  private Path jar;
  private Path state;

  @BeforeEach
  void aJarAndAStateDirectory() throws IOException {
    jar = Files.write(tmp.resolve("lockstep-agent.jar"), new byte[] {1, 2, 3});
    state = Files.createDirectories(tmp.resolve("state"));
  }

  private WorkerClassArchive archive() {
    return WorkerClassArchive.forEnvironment(null, state.toString(), jar.toString());
  }

  private static Path option(WorkerClassArchive.Use use, String prefix) {
    assertThat(use.options()).hasSize(1);
    assertThat(use.options().get(0)).startsWith(prefix);
    return Path.of(use.options().get(0).substring(prefix.length()));
  }

  @Test
  void theFirstWorkerDumpsTheOthersWaitAndAfterItsCleanExitAllMapIt() throws IOException {
    WorkerClassArchive a = archive();
    assertThat(a.path().getParent()).isEqualTo(state.resolve("cds"));
    WorkerClassArchive.Use first = a.use(null);
    assertThat(first.dumps()).isTrue();
    Path partial = option(first, "-XX:ArchiveClassesAtExit=");
    assertThat(partial).isNotEqualTo(a.path());
    assertThat(partial.getParent()).isEqualTo(a.path().getParent());
    assertThat(a.use(null).options()).as("a second worker while the first dumps").isEmpty();

    Files.write(partial, new byte[] {42}); // what the JVM writes at its exit
    first.exited(true);
    first.exited(false); // a later kill of the same worker changes nothing
    assertThat(a.path()).exists();
    assertThat(partial).doesNotExist();
    assertThat(option(a.use(null), "-XX:SharedArchiveFile=")).isEqualTo(a.path());
  }

  @Test
  void aKilledDumperLeavesNothingAndTheNextWorkerDumps() throws IOException {
    WorkerClassArchive a = archive();
    WorkerClassArchive.Use first = a.use(null);
    Path partial = option(first, "-XX:ArchiveClassesAtExit=");
    Files.write(partial, new byte[] {1});
    first.exited(false);
    assertThat(partial).doesNotExist();
    assertThat(a.path()).doesNotExist();
    assertThat(a.use(null).dumps()).isTrue();
  }

  @Test
  void aNewJarGetsANewArchiveAndTheOldOneGoesWhenTheNewIsMade() throws IOException {
    WorkerClassArchive old = archive();
    Files.write(old.path(), new byte[] {7});
    Files.setLastModifiedTime(
        jar, FileTime.fromMillis(Files.getLastModifiedTime(jar).toMillis() + 60_000));
    WorkerClassArchive renewed = archive();
    assertThat(renewed.path()).isNotEqualTo(old.path());
    WorkerClassArchive.Use dumper = renewed.use(null);
    Files.write(option(dumper, "-XX:ArchiveClassesAtExit="), new byte[] {8});
    dumper.exited(true);
    assertThat(renewed.path()).exists();
    assertThat(old.path()).doesNotExist();
  }

  @Test
  void offWhenSwitchedOffForClassDirectoriesAndWhenTheExtraOptionsChooseAnArchive()
      throws IOException {
    assertThat(WorkerClassArchive.forEnvironment("off", state.toString(), jar.toString()).use(null))
        .isSameAs(WorkerClassArchive.Use.NONE);
    Path classes = Files.createDirectories(tmp.resolve("classes"));
    assertThat(
            WorkerClassArchive.forEnvironment(null, state.toString(), jar + ":" + classes)
                .use(null))
        .isSameAs(WorkerClassArchive.Use.NONE);
    assertThat(archive().use("-XX:SharedArchiveFile=/tmp/mine.jsa"))
        .isSameAs(WorkerClassArchive.Use.NONE);
    assertThat(WorkerClassArchive.key(classes.toString(), List.of())).isNull();
  }

  @Test
  void aPartialArchiveOfAnAgentThatIsGoneIsRemovedOneOfALiveAgentIsNot() throws IOException {
    Path dir = archive().path().getParent();
    String name = archive().path().getFileName().toString();
    Path gone = Files.write(dir.resolve(name + "." + Integer.MAX_VALUE + ".tmp"), new byte[] {1});
    Path live =
        Files.write(
            dir.resolve(name + "." + ProcessHandle.current().pid() + ".tmp"), new byte[] {1});
    archive();
    assertThat(gone).doesNotExist();
    assertThat(live).exists();
  }

  @Test
  void theWorkersOptionsPutTheArchiveBeforeTheExtraOnesAndTheJvmsLinesOnStderr() {
    WorkerClassArchive.Use use =
        new WorkerClassArchive.Use(List.of("-XX:SharedArchiveFile=/x.jsa"), null);
    assertThat(WorkerProcess.jvmOptions(false, use, "-Xmx64m"))
        .containsSubsequence("-Xlog:disable", "-Xlog:all=error:stderr")
        .endsWith("-XX:SharedArchiveFile=/x.jsa", "-Xmx64m");
  }
}
