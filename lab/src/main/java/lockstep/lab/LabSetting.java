package lockstep.lab;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * What {@code lockstep lab set KEY=VALUE} changes on a running lab, one entry each (what it is,
 * which stack it belongs to, which values it takes).
 */
public enum LabSetting {
  /** dlm_controld's plocks per second (0: unlimited), changed live with dlm_tool set_config. */
  PLOCK_RATE_LIMIT("plock_rate_limit", Stack.GFS2, 0, Integer.MAX_VALUE),
  /**
   * dlm_controld's plock_ownership: not changeable live; GFS2 is unmounted and dlm_controld
   * restarted on every member.
   */
  PLOCK_OWNERSHIP("plock_ownership", Stack.GFS2, 0, 1),
  /** The write budget (MB/s) of OCFS2's shared disk and of each private disk, set through QMP. */
  DISK_MBPS("disk-mbps", null, 1, 100_000),
  /**
   * OCFS2's localalloc mount option (MB of each node's local allocation window; 0 sends every
   * allocation to the global bitmap and its cluster lock; {@code default}: the option left out, the
   * kernel's own): OCFS2 is remounted on every member, under its running agents.
   */
  LOCALALLOC("localalloc", Stack.OCFS2, 0, 4096);

  private final String key;
  private final Stack stack;
  private final int min;
  private final int max;

  LabSetting(String key, Stack stack, int min, int max) {
    this.key = key;
    this.stack = stack;
    this.min = min;
    this.max = max;
  }

  /** Whether a change unmounts the file system (the agents run on: {@code StackUp.unmounted}). */
  boolean remounts() {
    return this == PLOCK_OWNERSHIP || this == LOCALALLOC;
  }

  public String key() {
    return key;
  }

  /** The stack it needs up; null: the lab itself. */
  public Stack stack() {
    return stack;
  }

  /**
   * Refuses {@code value} of {@code option} outside the setting's range: the bounds {@code lab set}
   * holds a live change to hold at boot ({@code lab up --disk-mbps}) too.
   */
  public void check(String option, int value) {
    if (!allows(value)) {
      throw new LabException(option + ": " + value + " is outside " + range());
    }
  }

  private boolean allows(int value) {
    return value >= min && value <= max;
  }

  private String range() {
    return min + ".." + max;
  }

  /** The word of a value that leaves the setting to the kernel (localalloc only). */
  public static final String DEFAULT = "default";

  /** Whether {@code default} is a value of this setting. */
  private boolean hasDefault() {
    return this == LOCALALLOC;
  }

  /**
   * A KEY=VALUE of {@code lab set}, checked.
   *
   * @param value the number; null for {@link #DEFAULT}
   */
  public record Change(LabSetting setting, Integer value) {
    /** The value as state.json, the inventories' labels and the guest script have it. */
    public String word() {
      return value == null ? DEFAULT : Integer.toString(value);
    }
  }

  public static Change parse(String kv) {
    int eq = kv.indexOf('=');
    if (eq <= 0) {
      throw new LabException("set: '" + kv + "' is not KEY=VALUE (keys: " + settable() + ")");
    }
    String k = kv.substring(0, eq);
    String v = kv.substring(eq + 1);
    for (LabSetting s : values()) {
      if (s.key.equals(k) && s.min >= 0) {
        if (v.equals(DEFAULT) && s.hasDefault()) {
          return new Change(s, null);
        }
        int n;
        try {
          n = Integer.parseInt(v);
        } catch (NumberFormatException e) {
          throw new LabException("set: " + k + ": '" + v + "' is not a whole number");
        }
        if (!s.allows(n)) {
          throw new LabException("set: " + k + "=" + n + " is outside " + s.range());
        }
        return new Change(s, n);
      }
    }
    throw new LabException("set: unknown key '" + k + "' (keys: " + settable() + ")");
  }

  static String settable() {
    return Arrays.stream(values())
        .filter(s -> s.min >= 0)
        .map(LabSetting::key)
        .collect(Collectors.joining(", "));
  }
}
