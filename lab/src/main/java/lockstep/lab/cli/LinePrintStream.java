package lockstep.lab.cli;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;

/**
 * A PrintStream onto picocli's error writer, a line at a time (a child's bytes arrive in chunks; a
 * whole line keeps its UTF-8 characters whole).
 */
final class LinePrintStream extends OutputStream {
  private final PrintWriter to;
  private final ByteArrayOutputStream line = new ByteArrayOutputStream();

  private LinePrintStream(PrintWriter to) {
    this.to = to;
  }

  static PrintStream of(PrintWriter to) {
    return new PrintStream(new LinePrintStream(to), true, StandardCharsets.UTF_8);
  }

  @Override
  public synchronized void write(int b) {
    line.write(b);
    if (b == '\n') {
      flushLine();
    }
  }

  @Override
  public synchronized void write(byte[] b, int off, int len) {
    for (int i = off; i < off + len; i++) {
      write(b[i]);
    }
  }

  @Override
  public synchronized void flush() {
    flushLine();
  }

  @Override
  public synchronized void close() {
    flushLine();
  }

  private void flushLine() {
    if (line.size() > 0) {
      to.print(line.toString(StandardCharsets.UTF_8));
      to.flush();
      line.reset();
    }
  }
}
