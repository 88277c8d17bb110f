package lockstep.coordinator.it;

import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Signals to real processes (kill(1)) and a look at their child processes (the agents' workers).
 */
public final class Signals {
  private Signals() {}

  public static void send(long pid, String signal) throws IOException, InterruptedException {
    Process k = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).inheritIO().start();
    if (!k.waitFor(10, TimeUnit.SECONDS) || k.exitValue() != 0) {
      throw new IOException("kill -" + signal + " " + pid + " failed");
    }
  }

  /** Live child processes of pid (an agent's worker JVMs). */
  public static List<ProcessHandle> children(long pid) {
    Optional<ProcessHandle> p = ProcessHandle.of(pid);
    return p.map(h -> h.children().filter(ProcessHandle::isAlive).toList()).orElse(List.of());
  }
}
