package lockstep.coordinator.scenario;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Byte sizes as dd and fio users write them: 4096, 4KiB/4K (1024-based), 4KB (1000-based), up to
 * TiB/TB.
 */
public final class Sizes {
  private static final Pattern SIZE = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*([A-Za-z]*)");

  private Sizes() {}

  /** Parses a size; returns -1 if the text is not one. */
  public static long parse(String text) {
    Matcher m = SIZE.matcher(text.trim());
    if (!m.matches()) {
      return -1;
    }
    double number = Double.parseDouble(m.group(1));
    long unit =
        switch (m.group(2).toLowerCase(Locale.ROOT)) {
          case "", "b" -> 1L;
          case "k", "kib" -> 1L << 10;
          case "m", "mib" -> 1L << 20;
          case "g", "gib" -> 1L << 30;
          case "t", "tib" -> 1L << 40;
          case "kb" -> 1_000L;
          case "mb" -> 1_000_000L;
          case "gb" -> 1_000_000_000L;
          case "tb" -> 1_000_000_000_000L;
          default -> -1L;
        };
    if (unit < 0) {
      return -1;
    }
    double bytes = number * unit;
    if (bytes > Long.MAX_VALUE || bytes != Math.floor(bytes)) {
      return -1;
    }
    return (long) bytes;
  }

  /** 1024-based human form: 4 KiB, 2 GiB, 1.5 MiB. */
  public static String format(long bytes) {
    String[] units = {"B", "KiB", "MiB", "GiB", "TiB"};
    double v = bytes;
    int i = 0;
    while (v >= 1024 && i < units.length - 1) {
      v /= 1024;
      i++;
    }
    return (v == Math.floor(v)
            ? String.format(Locale.ROOT, "%.0f", v)
            : String.format(Locale.ROOT, "%.1f", v))
        + " "
        + units[i];
  }
}
