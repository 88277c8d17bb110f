package lockstep.coordinator.scenario;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Durations written as 50us, 500ms, 30s, 10m, 1h. */
public final class Durations {
  private static final Pattern DURATION = Pattern.compile("(\\d+)\\s*(us|ms|s|m|h)");

  /** Far beyond any field's maximum, and small enough that every unit converts without overflow. */
  static final Duration LARGEST = Duration.ofDays(365 * 100L);

  private Durations() {}

  /**
   * Returns null if the text is not a duration, and {@link #LARGEST} plus one second for a duration
   * beyond it (so a range check reports it instead of an overflow wrapping it).
   */
  public static Duration parse(String text) {
    Matcher m = DURATION.matcher(text.trim());
    if (!m.matches()) {
      return null;
    }
    Duration tooLarge = LARGEST.plusSeconds(1);
    if (m.group(1).length() > 15) {
      return tooLarge;
    }
    long n = Long.parseLong(m.group(1));
    Duration d =
        switch (m.group(2)) {
          case "us" -> Duration.ofNanos(n * 1000);
          case "ms" -> Duration.ofMillis(n);
          case "s" -> Duration.ofSeconds(n);
          case "m" -> Duration.ofSeconds(n).multipliedBy(60);
          default -> Duration.ofSeconds(n).multipliedBy(3600);
        };
    return d.compareTo(LARGEST) > 0 ? tooLarge : d;
  }
}
