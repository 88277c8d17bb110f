package lockstep.lab;

import java.nio.file.Path;
import java.util.List;

/**
 * Everything {@code lockstep lab} is told, immutable: where the lab keeps its state and disks
 * ({@code dir}), where images are cached ({@code cache}), and the settings of a new lab.
 *
 * @param accel "auto", "kvm" or "tcg"
 * @param memoryMib guest memory
 * @param cpus virtual CPUs per guest
 * @param nodes how many guests ({@link LabNode#MIN}..{@link LabNode#MAX})
 * @param servers how many of them (the last ones) serve instead of mounting the stacks
 * @param diskMbps the bandwidth budget of the OCFS2 shared disk (both guests together) and of each
 *     private disk, MB/s (10^6 bytes) of writes
 * @param localallocMb OCFS2's localalloc mount option; null: the kernel's default
 * @param plockRateLimit dlm_controld's plock_rate_limit (0: none)
 * @param plockOwnership dlm_controld's plock_ownership (0 or 1)
 */
public record LabConfig(
    Path dir,
    Path cache,
    String accel,
    int memoryMib,
    int cpus,
    int nodes,
    int servers,
    int diskMbps,
    Integer localallocMb,
    int plockRateLimit,
    int plockOwnership) {
  public static final Path DEFAULT_DIR = Path.of("/var/tmp/lockstep-lab");
  public static final Path DEFAULT_CACHE = Path.of("/var/cache/lockstep/lab");
  public static final int DEFAULT_MEMORY_MIB = 1536;
  public static final int DEFAULT_DISK_MBPS = 20;

  /**
   * One vCPU a guest: with two under TCG a worker JVM died in C1-compiled code in both tries
   * (docs/lab.md, "vCPUs").
   */
  public static final int DEFAULT_CPUS = 1;

  public static final int MAX_CPUS = 16;

  /** Two guests unless asked for more: what most tests need, the fastest to boot. */
  public static final int DEFAULT_NODES = 2;

  /** The old gfs_controld's defaults, the seed's era: 100 plocks/s, ownership on. */
  public static final int DEFAULT_PLOCK_RATE_LIMIT = 100;

  public static final int DEFAULT_PLOCK_OWNERSHIP = 1;

  public LabConfig {
    check(
        List.of("auto", "kvm", "tcg").contains(accel),
        "--accel: '%s' is not auto, kvm or tcg",
        accel);
    check(memoryMib >= 512, "--memory: %d MiB is too little for a guest (512+)", memoryMib);
    check(cpus >= 1 && cpus <= MAX_CPUS, "--cpus: %d is not 1 to %d", cpus, MAX_CPUS);
    LabNode.of(nodes, servers); // refuses a count outside MIN..MAX, or too few clients
    LabSetting.DISK_MBPS.check("--disk-mbps", diskMbps);
    if (localallocMb != null) {
      LabSetting.LOCALALLOC.check("--localalloc", localallocMb);
    }
    LabSetting.PLOCK_RATE_LIMIT.check("--plock-rate-limit", plockRateLimit);
    LabSetting.PLOCK_OWNERSHIP.check("--plock-ownership", plockOwnership);
  }

  private static void check(boolean holds, String problem, Object... args) {
    if (!holds) {
      throw new LabException(String.format(problem, args));
    }
  }

  /** Only where the lab lives (for down, status, set, run). */
  public static LabConfig of(Path dir, Path cache) {
    return new LabConfig(
        dir,
        cache,
        "auto",
        DEFAULT_MEMORY_MIB,
        DEFAULT_CPUS,
        DEFAULT_NODES,
        0,
        DEFAULT_DISK_MBPS,
        null,
        DEFAULT_PLOCK_RATE_LIMIT,
        DEFAULT_PLOCK_OWNERSHIP);
  }
}
