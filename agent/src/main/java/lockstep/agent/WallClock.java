package lockstep.agent;

import java.time.Instant;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/** The host's wall clock in ns since the Unix epoch, and waiting for an instant of it. */
public final class WallClock {
    // Spin only the last 200 us: many waiting processes on few cores must not starve each other.
    private static final long SPIN_BELOW_NANOS = 200_000;

    private WallClock() {
    }

    public static long nowNanos() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000_000L + now.getNano();
    }

    /**
     * Returns once the wall clock reaches {@code unixNanos}: parks until about 200 us before,
     * then spins, so the first operation begins within microseconds of the instant.
     * Returns false if {@code cancelled} became true first.
     */
    public static boolean awaitInstant(long unixNanos, BooleanSupplier cancelled) {
        while (true) {
            if (cancelled.getAsBoolean()) {
                return false;
            }
            long remaining = unixNanos - nowNanos();
            if (remaining <= 0) {
                return true;
            }
            if (remaining > SPIN_BELOW_NANOS) {
                LockSupport.parkNanos(Math.min(remaining - SPIN_BELOW_NANOS / 2, 50_000_000L));
            } else {
                Thread.onSpinWait();
            }
        }
    }
}
