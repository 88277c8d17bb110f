package lockstep.coordinator.launch;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** What the launch reads from a node's probe, and when the node's Java does not do. */
class RemoteProbeTest {
  @Test
  void readsTheProbesLines() {
    RemoteProbe p = RemoteProbe.parse("JAR ABSENT\nBUNDLE PRESENT\nJAVA 17.0.15\n");
    assertThat(p.jarPresent()).isFalse();
    assertThat(p.bundlePresent()).isTrue();
    assertThat(p.javaVersion()).isEqualTo("17.0.15");
    assertThat(p.javaSuitable()).isTrue();
  }

  @Test
  void javaOlderThan17OrNoneAtAllDoesNotDo() {
    assertThat(RemoteProbe.parse("JAVA 1.8.0_402").javaFeature()).isEqualTo(8);
    assertThat(RemoteProbe.parse("JAVA 11.0.22").javaSuitable()).isFalse();
    assertThat(RemoteProbe.parse("JAVA 21-ea").javaFeature()).isEqualTo(21);
    assertThat(RemoteProbe.parse("JAVA 25").javaSuitable()).isTrue();
    RemoteProbe none = RemoteProbe.parse("JAR PRESENT\nBUNDLE ABSENT\nJAVA none\n");
    assertThat(none.javaSuitable()).isFalse();
    assertThat(none.whyNoJava("java")).isEqualTo("no 'java' runs there");
    assertThat(RemoteProbe.parse("JAVA 11.0.22").whyNoJava("/opt/jdk/bin/java"))
        .isEqualTo("'/opt/jdk/bin/java' there is Java 11.0.22 (the agent needs 17+)");
  }
}
