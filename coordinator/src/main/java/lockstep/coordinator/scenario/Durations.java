package lockstep.coordinator.scenario;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Durations written as 50us, 500ms, 30s, 10m, 1h. */
public final class Durations {
    private static final Pattern DURATION = Pattern.compile("(\\d+)\\s*(us|ms|s|m|h)");

    private Durations() {
    }

    /** Returns null if the text is not a duration. */
    public static Duration parse(String text) {
        Matcher m = DURATION.matcher(text.trim());
        if (!m.matches()) {
            return null;
        }
        long n = Long.parseLong(m.group(1));
        return switch (m.group(2)) {
            case "us" -> Duration.ofNanos(n * 1000);
            case "ms" -> Duration.ofMillis(n);
            case "s" -> Duration.ofSeconds(n);
            case "m" -> Duration.ofMinutes(n);
            default -> Duration.ofHours(n);
        };
    }
}
