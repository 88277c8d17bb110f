package lockstep.coordinator.results;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Run ids, made and read back here only: TIME-NAME-RANDOM. */
public final class RunIds {
  private static final Pattern RUN_ID =
      Pattern.compile("\\d{8}-\\d{6}-(.+)-(?:[0-9a-f]{8}|[0-9a-f]{4})");
  private static final DateTimeFormatter RUN_ID_TIME =
      DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC);

  private RunIds() {}

  /**
   * TIME-NAME-RANDOM. 32 random bits: two runs of one scenario started in the same second must not
   * share an id (on agents they share, the second would join the first's run).
   */
  public static String newRunId(String name) {
    return RUN_ID_TIME.format(Instant.now())
        + "-"
        + name
        + "-"
        + String.format("%08x", ThreadLocalRandom.current().nextInt());
  }

  /**
   * The scenario name inside a run id from {@link #newRunId} (ids made before 2026-11-30 evening
   * end in 4 hex digits), or null.
   */
  public static String scenarioNameIn(String runId) {
    Matcher m = RUN_ID.matcher(runId);
    return m.matches() ? m.group(1) : null;
  }
}
