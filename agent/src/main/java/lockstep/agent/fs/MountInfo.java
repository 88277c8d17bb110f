package lockstep.agent.fs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/** The mount a path lives on, from /proc/self/mountinfo (longest mount-point prefix wins). */
public record MountInfo(String mountPoint, String fsType, String source, String options) {

  public static Optional<MountInfo> of(Path path) {
    try {
      return find(Files.readAllLines(Path.of("/proc/self/mountinfo")), path.toRealPath());
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  static Optional<MountInfo> find(List<String> lines, Path path) {
    MountInfo best = null;
    for (String line : lines) {
      MountInfo m = parse(line);
      if (m != null
          && path.startsWith(Path.of(m.mountPoint))
          && (best == null || m.mountPoint.length() >= best.mountPoint.length())) {
        best = m;
      }
    }
    return Optional.ofNullable(best);
  }

  /**
   * One mountinfo line: "id parent maj:min root mountpoint opts [optional...] - fstype source
   * superopts".
   */
  static MountInfo parse(String line) {
    String[] f = line.split(" ");
    int dash = -1;
    for (int i = 6; i < f.length; i++) {
      if (f[i].equals("-")) {
        dash = i;
        break;
      }
    }
    if (f.length < 6 || dash < 0 || dash + 2 >= f.length) {
      return null;
    }
    String superOptions = dash + 3 < f.length ? f[dash + 3] : "";
    return new MountInfo(
        unescape(f[4]),
        f[dash + 1],
        unescape(f[dash + 2]),
        f[5] + (superOptions.isEmpty() ? "" : "," + superOptions));
  }

  /** mountinfo's octal escapes (\\040 for a space, \\134 for a backslash ...) undone. */
  public static String unescape(String s) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '\\' && i + 3 < s.length()) {
        out.append((char) Integer.parseInt(s.substring(i + 1, i + 4), 8));
        i += 3;
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }
}
