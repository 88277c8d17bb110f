package lockstep.coordinator.local;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import lockstep.coordinator.scenario.Scenario;
import lockstep.coordinator.scenario.ScenarioParser;
import lockstep.coordinator.session.RunSession;

/**
 * The embedded default: N local agent processes on loopback with temporary roots, both seed
 * experiments (demo/*.yaml on the classpath) scaled down, the reports, then everything stopped and
 * the temporary roots removed.
 */
public record Demo(PrintStream out, int nodes, Path resultsDir) {

  public boolean run() throws IOException {
    Path work = Files.createTempDirectory("lockstep-demo-");
    List<Path> saved = new ArrayList<>();
    boolean ok = true;
    try (LocalAgents agents = LocalAgents.start(nodes, work)) {
      out.printf(
          "Started %d local agents on %s (roots under %s)%n",
          nodes, String.join(", ", agents.addresses()), work);
      for (DemoSeed seed : DemoSeed.ALL) {
        Scenario s =
            new ScenarioParser()
                .parse(read(seed.resource()), "demo:" + seed.resource())
                .withAgents(agents.addresses());
        out.printf("%n=== %s ===%n%s%n%n", s.name(), seed.onOneMachine());
        RunSession.Outcome o = new RunSession(out).execute(s, resultsDir);
        if (o.run() != null) {
          out.printf("%n%s%n", seed.effect().apply(o.run()));
        }
        saved.add(o.runJson());
        ok &= o.ok();
      }
    } finally {
      deleteTree(work);
    }
    out.printf("%nDemo done. Results:%n");
    saved.forEach(p -> out.println("  " + p));
    out.println("Agents stopped; temporary roots removed.");
    return ok;
  }

  private static String read(String resource) throws IOException {
    try (InputStream in = Demo.class.getClassLoader().getResourceAsStream(resource)) {
      if (in == null) {
        throw new IOException("missing demo scenario " + resource);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  private static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
