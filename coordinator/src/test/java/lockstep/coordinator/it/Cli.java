package lockstep.coordinator.it;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import lockstep.coordinator.cli.LockstepCli;

/**
 * Runs the coordinator's command line in this JVM and keeps what it printed (and echoes it to the
 * test log).
 */
public record Cli(int exitCode, String out, String err) {
  /** The words of {@code lockstep run SCENARIO --agents A,B,... --out OUT MORE...}. */
  public static String[] runArgs(Path scenario, List<String> agents, Path out, String... more) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "run",
                scenario.toString(),
                "--agents",
                String.join(",", agents),
                "--out",
                out.toString()));
    args.addAll(List.of(more));
    return args.toArray(String[]::new);
  }

  /** The run.json that a run saved somewhere under {@code results}: the first one found. */
  public static Path runJson(Path results) throws IOException {
    try (Stream<Path> files = Files.walk(results)) {
      return files
          .filter(p -> p.getFileName().toString().equals("run.json"))
          .findFirst()
          .orElseThrow();
    }
  }

  /** {@code lockstep report RUN_JSON OPTIONS...}: a saved run reported (and judged) again. */
  public static Cli report(Path runJson, String... options) {
    List<String> args = new ArrayList<>(List.of("report", runJson.toString()));
    args.addAll(List.of(options));
    return run(args.toArray(String[]::new));
  }

  public static synchronized Cli run(String... args) {
    PrintStream saved = System.out;
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    StringWriter err = new StringWriter();
    int code;
    try (PrintStream capture = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
      System.setOut(capture);
      var cmd = LockstepCli.commandLine();
      cmd.setErr(new PrintWriter(err, true));
      code = cmd.execute(args);
    } finally {
      System.setOut(saved);
    }
    Cli r = new Cli(code, bytes.toString(StandardCharsets.UTF_8), err.toString());
    System.out.println(
        "$ lockstep " + String.join(" ", args) + "\n" + r.out + r.err + "(exit " + code + ")");
    return r;
  }
}
