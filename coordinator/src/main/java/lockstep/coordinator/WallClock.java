package lockstep.coordinator;

import java.time.Instant;

/** The coordinator's wall clock in ns since the Unix epoch. */
public final class WallClock {
    private WallClock() {
    }

    public static long nowNanos() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000_000L + now.getNano();
    }
}
