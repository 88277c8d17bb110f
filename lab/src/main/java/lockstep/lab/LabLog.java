package lockstep.lab;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Locale;

/**
 * What the lab did: progress lines for the user (with the seconds since the command began) and
 * every command with its output in a log file (DIR/lab.log).
 */
final class LabLog {
  private final PrintStream out;
  private final Path file;
  private final long startNanos = System.nanoTime();

  LabLog(PrintStream out, Path file) {
    this.out = out;
    this.file = file;
  }

  /** Seconds since this log began. */
  double seconds() {
    return (System.nanoTime() - startNanos) / 1e9;
  }

  /** A progress line for the user (also in the log file). */
  void say(String message) {
    String l = String.format(Locale.ROOT, "lab: [%6.1fs] %s", seconds(), message);
    out.println(l);
    out.flush();
    line(l);
  }

  /** A line for the log file only. */
  void line(String text) {
    append(Instant.now().truncatedTo(ChronoUnit.MILLIS) + " " + text + "\n");
  }

  void block(String text) {
    if (!text.isEmpty()) {
      append(text.endsWith("\n") ? text : text + "\n");
    }
  }

  Path file() {
    return file;
  }

  private synchronized void append(String s) {
    if (file == null) {
      return;
    }
    try {
      Files.createDirectories(file.getParent());
      Files.writeString(
          file, s, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    } catch (IOException e) {
      // the log is a help, not a need
    }
  }
}
