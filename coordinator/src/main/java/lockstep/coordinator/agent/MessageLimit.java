package lockstep.coordinator.agent;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The largest answer the coordinator reads from an agent (a step's result with its progress series
 * and resource samples): {@value #DEFAULT_MIB} MiB, or {@code LOCKSTEP_MAX_MESSAGE_MIB} in the
 * coordinator's environment. (gRPC's own default, 4 MiB, is met by a long run's result.) The agent
 * reads requests of at most 1 MiB.
 */
public final class MessageLimit {
  static final String ENV = "LOCKSTEP_MAX_MESSAGE_MIB";
  static final int DEFAULT_MIB = 64;
  private static final Pattern GRPC =
      Pattern.compile("gRPC message exceeds maximum size (\\d+): (\\d+)");

  private MessageLimit() {}

  static int bytes() {
    String v = System.getenv(ENV);
    int mib = DEFAULT_MIB;
    try {
      if (v != null && Integer.parseInt(v.trim()) > 0 && Integer.parseInt(v.trim()) <= 2047) {
        mib = Integer.parseInt(v.trim());
      }
    } catch (NumberFormatException e) {
      // default
    }
    return mib << 20;
  }

  /**
   * A RESOURCE_EXHAUSTED description in words: gRPC's message-size refusal names both sides'
   * limits.
   */
  static String explain(String description) {
    if (description == null) {
      return "RESOURCE_EXHAUSTED";
    }
    Matcher m = GRPC.matcher(description);
    if (!m.find()) {
      return description;
    }
    long limit = Long.parseLong(m.group(1));
    long size = Long.parseLong(m.group(2));
    return String.format(
        "a message of %d bytes is above the receiver's limit of %d bytes (%d MiB); the agent reads"
            + " requests of at most 1 MiB, the coordinator answers of at most %s MiB (raise with %s"
            + " in its environment)",
        size, limit, limit >> 20, bytes() >> 20, ENV);
  }
}
