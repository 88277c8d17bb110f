package lockstep.coordinator.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import lockstep.common.ListeningLine;
import lockstep.testsupport.Required;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testcontainers.containers.Container.ExecResult;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.output.OutputFrame;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.utility.DockerImageName;

/**
 * The agent image (deploy/docker/Dockerfile) carries no Java of its own: the agent and the
 * coordinator both run on the runtime of the agent's .deb.
 */
class AgentImageIT {
  @RegisterExtension static final Required.Gate MACHINE = new Required.Gate();

  static GenericContainer<?> agent;

  @BeforeAll
  @SuppressWarnings("resource")
  static void start() throws Exception {
    String[] image = new String[1];
    if (!MACHINE.checkOnce(
        () -> {
          Requirements.docker();
          image[0] = AgentImage.get();
        })) {
      return;
    }
    agent =
        new GenericContainer<>(DockerImageName.parse(image[0]))
            .withNetworkMode("host")
            .withCommand("--listen", "127.0.0.1:0", "--root", "/data", "--name", "imagenode")
            .waitingFor(
                Wait.forLogMessage("(?s).*listening on 127\\.0\\.0\\.1:\\d+.*", 1)
                    .withStartupTimeout(Duration.ofSeconds(120)));
    agent.start();
  }

  @AfterAll
  static void stop() throws Exception {
    Closing.closeEach(agent);
  }

  @Test
  void theAgentRunsOnThePackagedRuntimeAndAnswers() throws Exception {
    String address =
        ListeningLine.parse(agent.getLogs(OutputFrame.OutputType.STDOUT)).orElseThrow().address();
    Cli agents = Cli.run("agents", "--agents", address);
    assertThat(agents.exitCode()).as(agents.err()).isZero();
    assertThat(agents.out()).contains("imagenode");
    // the JVM the entrypoint started, as the kernel sees it
    assertThat(exec("tr '\\0' ' ' </proc/1/cmdline"))
        .startsWith("/usr/lib/lockstep-agent/runtime/bin/java ");
  }

  @Test
  void theCoordinatorRunsOnTheSameRuntimeAndNoOtherJavaIsThere() throws Exception {
    assertThat(exec("command -v java")).isEqualTo("/usr/lib/lockstep-agent/runtime/bin/java\n");
    assertThat(exec("java -jar /opt/lockstep/lockstep.jar --version")).startsWith("lockstep ");
    assertThat(exec("ls /usr/lib/jvm 2>/dev/null | wc -l")).isEqualTo("0\n");
  }

  private static String exec(String script) throws Exception {
    ExecResult r = agent.execInContainer("sh", "-c", script);
    assertThat(r.getExitCode()).as("%s: %s", script, r.getStderr()).isZero();
    return r.getStdout();
  }
}
