package lockstep.coordinator.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import lockstep.coordinator.scenario.ScenarioParser;
import org.junit.jupiter.api.Test;

/** Each demo seed says what one machine cannot show of it, and its scenario parses. */
class DemoSeedTest {
  @Test
  void everySeedHasItsScenarioAndSaysWhatOneMachineShows() throws IOException {
    assertThat(DemoSeed.ALL).hasSize(2);
    for (DemoSeed seed : DemoSeed.ALL) {
      try (InputStream in = DemoSeed.class.getClassLoader().getResourceAsStream(seed.resource())) {
        assertThat(in).as(seed.resource()).isNotNull();
        new ScenarioParser().parse(new String(in.readAllBytes()), seed.resource());
      }
      assertThat(seed.onOneMachine()).contains("one machine");
    }
    assertThat(DemoSeed.ALL.get(1).onOneMachine())
        .contains("no cluster lock daemon", "cannot", "lab up gfs2");
  }
}
