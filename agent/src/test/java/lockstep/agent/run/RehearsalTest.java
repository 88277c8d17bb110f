package lockstep.agent.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import lockstep.agent.v1.RunState;
import org.junit.jupiter.api.Test;

class RehearsalTest {
  @Test
  void aPingPongStepRunsOnTmpfsAndLeavesNothing() throws Exception {
    // another agent's rehearsal (or a killed one's) may have its own directory there
    java.util.Set<String> before = rehearsalDirs();
    Rehearsal r = Rehearsal.start("n1");
    r.awaitDone();
    assertThat(r.succeeded()).isTrue();
    assertThat(r.outcome()).isEqualTo(RunState.RUN_STATE_SUCCEEDED);
    assertThat(rehearsalDirs()).isSubsetOf(before);
  }

  private static java.util.Set<String> rehearsalDirs() throws java.io.IOException {
    try (Stream<Path> shm = Files.list(Path.of("/dev/shm"))) {
      return shm.map(p -> p.getFileName().toString())
          .filter(n -> n.startsWith("lockstep-rehearsal"))
          .collect(java.util.stream.Collectors.toSet());
    }
  }

  @Test
  void aPrepareWaitsForTheRehearsal() throws Exception {
    Path root = Files.createTempDirectory("lockstep-rehearsal-test");
    try (RunRegistry registry = new RunRegistry(new AgentConfig("n1", root, "", 0))) {
      Rehearsal r = Rehearsal.start("n1");
      registry.rehearsedBy(r);
      try {
        registry.prepare(lockstep.agent.v1.PrepareRequest.newBuilder().build(), "test");
      } catch (RuntimeException expected) {
        // an empty run id is refused, but only after the rehearsal ended
      }
      assertThat(r.succeeded()).isTrue();
    } finally {
      Files.deleteIfExists(root);
    }
  }
}
