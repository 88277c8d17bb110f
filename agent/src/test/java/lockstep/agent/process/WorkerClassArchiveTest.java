package lockstep.agent.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WorkerClassArchiveTest {
  @TempDir Path tmp;
  private Path jar;
  private Path state;

  @BeforeEach
  void aJarAndAStateDirectory() throws IOException {
    jar = tmp.resolve("lockstep-agent.jar");
    Manifest m = new Manifest();
    m.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar), m)) {
      out.finish();
    }
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

  /** What the JVM writes with -XX:DumpLoadedClassList as a worker loads its classes. */
  private static void listed(Path list) throws IOException {
    Files.writeString(list, "java/lang/Object\njava/lang/String\n");
  }

  private static void awaitMade(Path archive) {
    await().atMost(Duration.ofSeconds(120)).until(() -> Files.isRegularFile(archive));
  }

  @Test
  void theFirstWorkerListsItsClassesTheArchiveIsDumpedFromThemAndTheWorkersMapIt()
      throws Exception {
    WorkerClassArchive a = archive();
    assertThat(a.path().getParent()).isEqualTo(state.resolve("cds"));
    WorkerClassArchive.Use first = a.use(null);
    assertThat(first.dumps()).isTrue();
    Path list = option(first, "-XX:DumpLoadedClassList=");
    assertThat(list).isEqualTo(a.classList());
    assertThat(list.getParent()).isEqualTo(a.path().getParent());
    assertThat(a.use(null).options()).as("a second worker while the first lists").isEmpty();

    listed(list);
    first.exited(true);
    first.exited(false); // a later kill of the same worker changes nothing
    awaitMade(a.path());
    await().atMost(Duration.ofSeconds(10)).until(() -> !Files.exists(list));
    assertThat(option(a.use(null), "-XX:SharedArchiveFile=")).isEqualTo(a.path());

    // a JVM with the workers' options and class path maps it (-Xshare:on fails otherwise)
    List<String> command = new ArrayList<>(a.dumpCommand(list, a.path()));
    command.removeIf(o -> o.startsWith("-Xshare") || o.startsWith("-XX:Shared"));
    command.add(1, "-Xshare:on");
    command.add(2, "-XX:SharedArchiveFile=" + a.path());
    command.add("-version");
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(out).isZero();
  }

  @Test
  void theDumpIsOfTheWorkersJvmOptionsAndClassPath() {
    WorkerClassArchive a = archive();
    assertThat(a.dumpCommand(Path.of("/l"), Path.of("/a.jsa")))
        .containsSubsequence(
            "-XX:+UseSerialGC",
            "-Xmx128m",
            "-Xshare:dump",
            "-XX:SharedClassListFile=/l",
            "-XX:SharedArchiveFile=/a.jsa",
            "-cp",
            jar.toString());
  }

  @Test
  void aKilledListerLeavesNothingAndTheNextWorkerLists() throws IOException {
    WorkerClassArchive a = archive();
    WorkerClassArchive.Use first = a.use(null);
    Path list = option(first, "-XX:DumpLoadedClassList=");
    listed(list);
    first.exited(false);
    assertThat(list).doesNotExist();
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
    WorkerClassArchive.Use lister = renewed.use(null);
    listed(option(lister, "-XX:DumpLoadedClassList="));
    lister.exited(true);
    awaitMade(renewed.path());
    await().atMost(Duration.ofSeconds(10)).until(() -> !Files.exists(old.path()));
  }

  @Test
  void thePackagesArchiveIsMappedAndNoneIsDumped() throws IOException {
    Path packaged = Files.write(tmp.resolve("lockstep-agent.jsa"), new byte[] {1});
    WorkerClassArchive a =
        WorkerClassArchive.forEnvironment(
            null, packaged.toString(), state.toString(), jar.toString());
    WorkerClassArchive.Use use = a.use(null);
    assertThat(option(use, "-XX:SharedArchiveFile=")).isEqualTo(packaged);
    assertThat(a.use(null).options()).isEqualTo(use.options());
    try (var files = Files.list(state)) {
      assertThat(files).as("nothing dumped or listed in the state directory").isEmpty();
    }
    // a package's archive that is not there (the tarball unpacked elsewhere): the node's own
    Path own =
        WorkerClassArchive.forEnvironment(
                null, tmp.resolve("gone.jsa").toString(), state.toString(), jar.toString())
            .path();
    assertThat(own.startsWith(state)).as("%s in the state directory", own).isTrue();
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
    Path goneList =
        Files.write(dir.resolve(name + ".classlist." + Integer.MAX_VALUE + ".tmp"), new byte[] {1});
    Path live =
        Files.write(
            dir.resolve(name + "." + ProcessHandle.current().pid() + ".tmp"), new byte[] {1});
    archive();
    assertThat(gone).doesNotExist();
    assertThat(goneList).doesNotExist();
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
