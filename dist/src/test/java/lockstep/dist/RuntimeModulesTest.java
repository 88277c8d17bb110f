package lockstep.dist;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.spi.ToolProvider;
import java.util.stream.Collectors;
import lockstep.testsupport.Required;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The runtime the packages carry (dist/target/runtime, made by src/build/runtime.sh) against what
 * jdeps, asked here on its own, says the agent jar uses: a new dependency that needs another module
 * fails this test instead of an agent on a node.
 */
class RuntimeModulesTest {
  static Path runtime;
  static Path agentJar;
  static Path src;

  @BeforeAll
  static void paths() {
    runtime = Path.of(System.getProperty("dist.runtime", "target/runtime"));
    agentJar = Path.of(System.getProperty("dist.agent.jar", "../agent/target/lockstep-agent.jar"));
    src = Path.of(System.getProperty("dist.src", "src"));
    Required.that(
        Files.isExecutable(runtime.resolve("bin/java")),
        runtime + "/bin/java is missing (mvn -B package -Pdist -pl dist -am makes it)");
  }

  @Test
  void theRuntimeHasEveryModuleJdepsFindsInTheAgentJarAndTheServicesItCannotSee()
      throws IOException {
    Set<String> needed = new TreeSet<>(jdeps(agentJar));
    assertThat(needed).as("jdeps of %s", agentJar).contains("java.base");
    needed.addAll(extraModules(src.resolve("build/extra-modules")));
    assertThat(missing(runtimeModules(runtime), needed))
        .as("modules the agent needs that %s lacks", runtime)
        .isEmpty();
  }

  @Test
  void aModuleMissingFromTheRuntimeIsNamed() {
    assertThat(missing(Set.of("java.base", "java.sql"), Set.of("java.base", "jdk.crypto.ec")))
        .containsExactly("jdk.crypto.ec");
  }

  @Test
  void theRuntimeRunsTheAgentWithItsOwnClassDataArchive() throws Exception {
    assertThat(runtime.resolve("lib/server/classes.jsa")).isRegularFile();
    // -Xshare:on fails the JVM's start when the archive cannot be mapped (-Xshare:auto, the
    // default, would quietly run without it).
    String out =
        run(
            runtime.resolve("bin/java").toString(),
            "-Xshare:on",
            "-jar",
            agentJar.toString(),
            "--version");
    assertThat(out).startsWith("lockstep-agent ");
  }

  /** The modules {@code jdeps} says {@code jar} uses, as runtime.sh asks it. */
  static Set<String> jdeps(Path jar) {
    ToolProvider jdeps = ToolProvider.findFirst("jdeps").orElseThrow();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int rc =
        jdeps.run(
            new PrintWriter(out, true, StandardCharsets.UTF_8),
            new PrintWriter(err, true, StandardCharsets.UTF_8),
            "--ignore-missing-deps",
            "--print-module-deps",
            "--multi-release",
            "17",
            jar.toString());
    assertThat(rc).as("jdeps: %s", err.toString(StandardCharsets.UTF_8)).isZero();
    return Arrays.stream(out.toString(StandardCharsets.UTF_8).strip().split(","))
        .map(String::strip)
        .filter(s -> !s.isEmpty())
        .collect(Collectors.toCollection(LinkedHashSet::new));
  }

  /** The MODULES line of the runtime's {@code release} file: what jlink linked. */
  static Set<String> runtimeModules(Path runtime) throws IOException {
    return Files.readAllLines(runtime.resolve("release")).stream()
        .filter(l -> l.startsWith("MODULES="))
        .findFirst()
        .map(l -> l.substring("MODULES=".length()).replace("\"", "").strip().split("\\s+"))
        .map(a -> (Set<String>) new TreeSet<>(List.of(a)))
        .orElseThrow(() -> new AssertionError(runtime + "/release has no MODULES line"));
  }

  static Set<String> extraModules(Path file) throws IOException {
    return Files.readAllLines(file).stream()
        .map(l -> l.replaceAll("#.*", "").strip())
        .filter(l -> !l.isEmpty())
        .collect(Collectors.toCollection(TreeSet::new));
  }

  static Set<String> missing(Set<String> have, Set<String> needed) {
    Set<String> m = new TreeSet<>(needed);
    m.removeAll(have);
    return m;
  }

  private static String run(String... command) throws Exception {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("%s finished", List.of(command)).isTrue();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.exitValue()).as("%s: %s", List.of(command), out).isZero();
    return out;
  }
}
