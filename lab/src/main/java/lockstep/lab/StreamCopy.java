package lockstep.lab;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;

/** A child's output copied as it comes (progress lines with carriage returns too). */
final class StreamCopy {
  private StreamCopy() {}

  static Thread start(InputStream from, PrintStream to) {
    Thread t =
        new Thread(
            () -> {
              byte[] buf = new byte[8192];
              try (from) {
                for (int n; (n = from.read(buf)) >= 0; ) {
                  to.write(buf, 0, n);
                  to.flush();
                }
              } catch (IOException e) {
                // the child is gone: what it wrote until then was copied
              }
            },
            "lab-child-output");
    t.setDaemon(true);
    t.start();
    return t;
  }
}
