package lockstep.agent.service;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The agent's command line run as a process of its own, for what it refuses at start. */
final class AgentProcess {
  private AgentProcess() {}

  /** How the process ended: its exit code, stdout and stderr. */
  record Exit(int code, String out, String err) {
    /** stderr's non-blank lines. */
    List<String> errLines() {
      return err.lines().filter(l -> !l.isBlank()).toList();
    }
  }

  /** Runs {@code lockstep-agent ARGS} on this JVM's class path; it must exit within 60 s. */
  static Exit run(String... args) throws IOException, InterruptedException {
    List<String> cmd =
        new ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                AgentMain.class.getName()));
    cmd.addAll(List.of(args));
    Process p = new ProcessBuilder(cmd).start();
    p.getOutputStream().close();
    if (!p.waitFor(60, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("agent did not exit within 60 s: " + String.join(" ", args));
    }
    return new Exit(
        p.exitValue(),
        new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8),
        new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
  }
}
