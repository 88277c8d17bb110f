package lockstep.lab;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * What {@code lockstep lab set KEY=VALUE} changes on a running lab, one entry each (what it is,
 * which stack it belongs to, which values it takes: a whole number in a range, or one of a few
 * words).
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
  LOCALALLOC("localalloc", Stack.OCFS2, 0, 4096),
  /** The clients' NFS version (mount option vers=): 3 locks through NLM (lockd, statd). */
  NFS_VERS("nfs_vers", Stack.NFS, List.of("4.2", "4.1", "4.0", "3")),
  /**
   * The clients' local_lock= mount option: which lock calls never reach the server (none, all,
   * posix: fcntl, flock).
   */
  NFS_LOCAL_LOCK("nfs_local_lock", Stack.NFS, List.of("none", "all", "posix", "flock")),
  /** Off mounts with nolock (NFSv3: no NLM, every lock local to its client). */
  NFS_LOCK("nfs_lock", Stack.NFS, List.of("on", "off")),
  /** The clients' attribute cache bound in seconds (actimeo=; default: the option left out). */
  NFS_ACTIMEO("nfs_actimeo", Stack.NFS, 0, 3600),
  /** The clients' lookupcache= mount option (all is the kernel's default). */
  NFS_LOOKUPCACHE("nfs_lookupcache", Stack.NFS, List.of("all", "pos", "none")),
  /**
   * The server's grace period in seconds: nfsd's v4 grace time and lockd's nlm_grace_period alike
   * (the server's nfsd restarted; nfsd takes 10 at least). The lab's default is 15, not the
   * kernel's 90, so that a restart's wait fits a test.
   */
  NFS_GRACE("nfs_grace", Stack.NFS, 10, 3600),
  /** The server's NFSv4 lease time in seconds (nfsd restarted; 15 in the lab, the kernel's 90). */
  NFS_LEASE("nfs_lease", Stack.NFS, 10, 3600);

  /** The lab's NFS grace and lease time at boot (seconds). */
  public static final int LAB_NFS_SECONDS = 15;

  private final String key;
  private final Stack stack;
  private final int min;
  private final int max;
  private final List<String> words;

  LabSetting(String key, Stack stack, int min, int max) {
    this.key = key;
    this.stack = stack;
    this.min = min;
    this.max = max;
    this.words = List.of();
  }

  LabSetting(String key, Stack stack, List<String> words) {
    this.key = key;
    this.stack = stack;
    this.min = 0;
    this.max = -1;
    this.words = words;
  }

  /** Whether a change unmounts the file system (the agents run on: {@code StackUp.unmounted}). */
  boolean remounts() {
    return this == PLOCK_OWNERSHIP || this == LOCALALLOC || mountsNfs();
  }

  /** Whether the setting is one of the NFS clients' mount options. */
  boolean mountsNfs() {
    return this == NFS_VERS
        || this == NFS_LOCAL_LOCK
        || this == NFS_LOCK
        || this == NFS_ACTIMEO
        || this == NFS_LOOKUPCACHE;
  }

  /** Whether a change restarts the NFS server's nfsd. */
  boolean restartsNfsd() {
    return this == NFS_GRACE || this == NFS_LEASE;
  }

  public String key() {
    return key;
  }

  /** The stack it needs up; null: the lab itself. */
  public Stack stack() {
    return stack;
  }

  /** The value a lab boots with, when no option of {@code lab up} names it. */
  String initial() {
    return switch (this) {
      case NFS_VERS, NFS_LOOKUPCACHE -> words.get(0);
      case NFS_LOCAL_LOCK -> "none";
      case NFS_LOCK -> "on";
      case NFS_ACTIMEO -> DEFAULT;
      case NFS_GRACE, NFS_LEASE -> Integer.toString(LAB_NFS_SECONDS);
      default -> throw new IllegalStateException(key + " boots with lab up's option");
    };
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

  /** The word of a value that leaves the setting to the kernel (localalloc, nfs_actimeo). */
  public static final String DEFAULT = "default";

  /** Whether {@code default} is a value of this setting. */
  private boolean hasDefault() {
    return this == LOCALALLOC || this == NFS_ACTIMEO;
  }

  /**
   * A KEY=VALUE of {@code lab set}, checked.
   *
   * @param word the value as state.json, the inventories' labels and the guest script have it: a
   *     number, one of the setting's words, or {@link #DEFAULT}
   */
  public record Change(LabSetting setting, String word) {
    public Change(LabSetting setting, int value) {
      this(setting, Integer.toString(value));
    }

    /** The number; null for {@link #DEFAULT} (a setting of words has none). */
    public Integer value() {
      return word.equals(DEFAULT) || !setting.words.isEmpty() ? null : Integer.valueOf(word);
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
      if (!s.key.equals(k)) {
        continue;
      }
      if (!s.words.isEmpty()) {
        if (!s.words.contains(v)) {
          throw new LabException(
              "set: " + k + ": '" + v + "' is not one of " + String.join(", ", s.words));
        }
        return new Change(s, v);
      }
      if (v.equals(DEFAULT) && s.hasDefault()) {
        return new Change(s, DEFAULT);
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
    throw new LabException("set: unknown key '" + k + "' (keys: " + settable() + ")");
  }

  static String settable() {
    return Arrays.stream(values()).map(LabSetting::key).collect(Collectors.joining(", "));
  }
}
