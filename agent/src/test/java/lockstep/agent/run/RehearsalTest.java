package lockstep.agent.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import lockstep.agent.process.CallDeadline;
import lockstep.agent.v1.RunState;
import org.junit.jupiter.api.Test;

class RehearsalTest {
  @Test
  void aPingPongStepRunsOnTmpfsAndLeavesNothing() throws Exception {
    // another agent's rehearsal (or a killed one's) may have its own directory there
    Set<String> before = rehearsalDirs();
    Rehearsal r = Rehearsal.start("n1");
    r.awaitDone();
    assertThat(r.succeeded()).isTrue();
    assertThat(r.outcome()).isEqualTo(RunState.RUN_STATE_SUCCEEDED);
    assertThat(rehearsalDirs()).isSubsetOf(before);
  }

  private static Set<String> rehearsalDirs() throws IOException {
    try (Stream<Path> shm = Files.list(Path.of("/dev/shm"))) {
      return shm.map(p -> p.getFileName().toString())
          .filter(n -> n.startsWith("lockstep-rehearsal"))
          .collect(Collectors.toSet());
    }
  }

  @Test
  void aPrepareWaitsForTheRehearsal() throws Exception {
    Path root = Files.createTempDirectory("lockstep-rehearsal-test");
    try (RunRegistry registry = new RunRegistry(new AgentConfig("n1", root, "", 0))) {
      Rehearsal r = Rehearsal.start("n1");
      registry.rehearsedBy(r);
      try {
        registry.prepare(
            lockstep.agent.v1.PrepareRequest.newBuilder().build(),
            "test",
            "test",
            CallDeadline.NONE);
      } catch (RuntimeException expected) {
        // an empty run id is refused, but only after the rehearsal ended
      }
      assertThat(r.succeeded()).isTrue();
    } finally {
      Files.deleteIfExists(root);
    }
  }

  @Test
  void anAgentStoppingMidRehearsalLeavesNoWorkerBehind() throws Exception {
    Path root = Files.createTempDirectory("lockstep-rehearsal-test");
    List<ProcessHandle> workers;
    try (RunRegistry registry = new RunRegistry(new AgentConfig("n1", root, "", 0))) {
      registry.rehearsedBy(Rehearsal.start("n1"));
      long end = System.nanoTime() + 60_000_000_000L;
      while ((workers = children()).isEmpty() && System.nanoTime() < end) {
        Thread.sleep(10);
      }
      assertThat(workers).as("the rehearsal's worker started").isNotEmpty();
    } finally {
      Files.deleteIfExists(root);
    }
    assertThat(workers)
        .as("%s", workers.stream().map(p -> p.info().commandLine().orElse("?")).toList())
        .noneMatch(ProcessHandle::isAlive);
  }

  private static List<ProcessHandle> children() {
    return ProcessHandle.current().children().filter(ProcessHandle::isAlive).toList();
  }
}
