package lockstep.coordinator.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import lockstep.coordinator.cli.LockstepCli;

/**
 * The coordinator as its own OS process ({@code java ... LockstepCli run ...}), for signals and
 * kills.
 */
public record Coordinator(Process process, Path stdout, Path stderr) {
  public static Coordinator start(Path dir, String... args) throws IOException {
    Files.createDirectories(dir);
    List<String> cmd = new ArrayList<>();
    if (Files.isExecutable(Path.of("/usr/bin/perl"))) {
      // a build started in the background (nohup, &) ignores SIGINT and its children inherit that,
      // so
      // the JVM would never see Ctrl-C: restore the default as a terminal's foreground job has it
      cmd.addAll(
          List.of("/usr/bin/perl", "-e", "$SIG{INT} = 'DEFAULT'; exec @ARGV or die \"exec: $!\""));
    }
    cmd.addAll(
        List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-XX:+UseSerialGC",
            "-XX:TieredStopAtLevel=1",
            "-Dlockstep.log.dir=" + dir.resolve("logs"),
            "-cp",
            System.getProperty("java.class.path"),
            LockstepCli.class.getName()));
    cmd.addAll(List.of(args));
    Path out = dir.resolve("coordinator.out");
    Path err = dir.resolve("coordinator.err");
    Process p =
        new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    return new Coordinator(p, out, err);
  }

  /** Sends a signal by name (INT, TERM, KILL) with the system's kill(1). */
  public void signal(String name) throws IOException, InterruptedException {
    Signals.send(process.pid(), name);
  }

  /** Kills the process if it still runs, then prints what it wrote to the test log. */
  public void killAndPrint() throws IOException {
    process.destroyForcibly();
    System.out.println("coordinator stdout:\n" + out() + "coordinator stderr:\n" + err());
  }

  public String err() throws IOException {
    return Files.readString(stderr);
  }

  public String out() throws IOException {
    return Files.readString(stdout);
  }
}
