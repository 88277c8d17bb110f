package lockstep.coordinator.scenario;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import lockstep.agent.v1.AccessPattern;
import lockstep.agent.v1.FileClose;
import lockstep.agent.v1.HotLockWorkload;
import lockstep.agent.v1.LockFilesWorkload;
import lockstep.agent.v1.LockKind;
import lockstep.agent.v1.LockRelease;
import lockstep.agent.v1.MetadataOp;
import lockstep.agent.v1.MetadataWorkload;
import lockstep.agent.v1.PingPongIo;
import lockstep.agent.v1.PingPongWorkload;
import lockstep.agent.v1.ReadWorkload;
import lockstep.agent.v1.WorkloadSpec;
import lockstep.agent.v1.WriteWorkload;
import lockstep.common.InvalidWorkloadException;
import lockstep.common.WorkloadValidator;

/**
 * Reads scenario YAML into a validated {@link Scenario}; every error names file and field. The
 * workload part only maps YAML to the agent's {@link WorkloadSpec} (types, names, units); its rules
 * are the agent's own {@link WorkloadValidator}, the one place they are written.
 */
public final class ScenarioParser {
  private static final long UINT32_MAX = 0xFFFF_FFFFL;
  static final int MAX_REPEAT = 100;
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,79}");
  static final List<String> TYPES =
      List.of("write", "read", "lock-files", "ping-pong", "hot-lock", "metadata");

  public Scenario parse(Path file) {
    return parse(YamlFiles.read(file, "scenario"), file.toString());
  }

  public Scenario parse(String yaml, String source) {
    JsonNode root = YamlFiles.parse(yaml, "scenario " + source);
    if (root == null || root.isMissingNode()) {
      throw new ScenarioException("scenario " + source + ": is empty");
    }
    YamlMapping top = new YamlMapping(root, "", source);
    String name = top.requiredString("name");
    if (!NAME.matcher(name).matches()) {
      throw top.error(
          "name",
          "'" + Echo.value(name) + "' must be letters, digits, '.', '_' or '-' (at most 80)");
    }
    List<String> agents = top.stringList("agents");
    List<PlanStep> plan = plan(top, top.stringList("plan"));
    Duration timeout = top.duration("timeout", "10m", Duration.ofSeconds(1), Duration.ofHours(24));
    Duration startLead =
        top.duration("start-lead", "500ms", Duration.ofMillis(50), Duration.ofMinutes(5));
    double skewWarn = top.integer("skew-warn-percent", 5, 0, 100) / 100.0;
    int repeat = (int) top.integer("repeat", 1, 1, MAX_REPEAT);
    List<Integer> ramp = PlanFields.ramp(top, plan);
    boolean telemetry = top.bool("telemetry", true);
    JsonNode workloadNode = top.node("workload");
    if (workloadNode == null) {
      throw top.error("workload", "is required");
    }
    YamlMapping w = new YamlMapping(workloadNode, "workload", source);
    String type = w.requiredString("type");
    WorkloadSpec spec =
        switch (type) {
          case "write" -> write(w);
          case "read" -> read(w);
          case "lock-files" -> lockFiles(w);
          case "ping-pong" -> pingPong(w);
          case "hot-lock" -> hotLock(w);
          case "metadata" -> metadata(w);
          default ->
              throw w.error(
                  "workload.type",
                  "unknown workload type '"
                      + Echo.value(type)
                      + "' (known: "
                      + String.join(", ", TYPES)
                      + ")");
        };
    if (!w.bool("instrumentation", true)) {
      spec = spec.toBuilder().setInstrumentationOff(true).build();
    }
    w.rejectUnknown();
    top.rejectUnknown();
    try {
      WorkloadValidator.validate(spec);
    } catch (InvalidWorkloadException e) {
      throw w.error("workload." + e.field(), e.problem());
    }
    Map<String, Object> params = new LinkedHashMap<>(w.used());
    Scenario scenario =
        new Scenario(
            name,
            agents == null ? List.of() : List.copyOf(agents),
            plan,
            type,
            params,
            spec,
            timeout,
            startLead,
            skewWarn,
            repeat,
            ramp,
            telemetry);
    if (agents != null && !agents.isEmpty()) {
      checkNodeCount(scenario, agents.size(), source);
    }
    return scenario;
  }

  /**
   * Checks what depends on how many nodes run together: a ping-pong ring needs at least nodes x
   * processes + 1 slots.
   */
  public static void checkNodeCount(Scenario scenario, int nodes, String source) {
    WorkloadSpec spec = scenario.workload();
    if (spec.hasPingPong()) {
      try {
        WorkloadValidator.ringSlots(spec.getPingPong(), nodes);
      } catch (InvalidWorkloadException e) {
        throw new ScenarioException(
            "scenario " + source + ": workload." + e.field() + ": " + e.problem());
      }
    }
  }

  private static List<PlanStep> plan(YamlMapping top, List<String> names) {
    if (names == null) {
      return List.of(PlanStep.SOLO, PlanStep.ALL);
    }
    if (names.isEmpty()) {
      throw top.error("plan", "is empty (use [solo, all], [solo], [all] or [solo, ramp])");
    }
    List<PlanStep> plan = new ArrayList<>();
    for (String n : names) {
      PlanStep s = PlanStep.fromYaml(n);
      if (s == null) {
        throw top.error("plan", "unknown step '" + Echo.value(n) + "' (known: solo, all, ramp)");
      }
      plan.add(s);
    }
    return List.copyOf(plan);
  }

  private static WorkloadSpec write(YamlMapping w) {
    WriteWorkload.Builder b =
        WriteWorkload.newBuilder()
            .setFile(w.relativePath("file", "lockstep-write.{node}"))
            .setBlockSizeBytes((int) w.size("block-size", "1MiB", 0, UINT32_MAX))
            .setSizeBytes(w.size("size", null, 0, Long.MAX_VALUE))
            .setFdatasync(w.bool("fdatasync", false))
            .setODirect(w.bool("o-direct", false))
            .setOSync(w.bool("o-sync", false))
            .setPattern(pattern(w))
            .setThreads((int) w.integer("threads", 1, 0, UINT32_MAX))
            .setSeed(w.integer("seed", 1, 0, Long.MAX_VALUE));
    return WorkloadSpec.newBuilder().setWrite(b).build();
  }

  private static WorkloadSpec read(YamlMapping w) {
    ReadWorkload.Builder b =
        ReadWorkload.newBuilder()
            .setFile(w.relativePath("file", "lockstep-read.{node}"))
            .setBlockSizeBytes((int) w.size("block-size", "1MiB", 0, UINT32_MAX))
            .setSizeBytes(w.size("size", null, 0, Long.MAX_VALUE))
            .setODirect(w.bool("o-direct", false))
            .setPattern(pattern(w))
            .setThreads((int) w.integer("threads", 1, 0, UINT32_MAX))
            .setSeed(w.integer("seed", 1, 0, Long.MAX_VALUE));
    return WorkloadSpec.newBuilder().setRead(b).build();
  }

  private static AccessPattern pattern(YamlMapping w) {
    String p = w.string("pattern", "sequential");
    return switch (p) {
      case "sequential" -> AccessPattern.ACCESS_PATTERN_SEQUENTIAL;
      case "random" -> AccessPattern.ACCESS_PATTERN_RANDOM;
      default ->
          throw w.error(
              "workload.pattern",
              "unknown pattern '" + Echo.value(p) + "' (known: sequential, random)");
    };
  }

  private static LockKind lockKind(YamlMapping w, String defaultKind) {
    String lock = w.string("lock", defaultKind);
    LockKind kind =
        switch (lock) {
          case "fcntl" -> LockKind.LOCK_KIND_FCNTL;
          case "flock" -> LockKind.LOCK_KIND_FLOCK;
          case "ofd" -> LockKind.LOCK_KIND_OFD;
          default ->
              throw w.error(
                  "workload.lock",
                  "unknown lock kind '" + Echo.value(lock) + "' (known: fcntl, flock, ofd)");
        };
    return kind;
  }

  /** lock-mode: exclusive | shared; returns true for shared. */
  private static boolean shared(YamlMapping w) {
    String m = w.string("lock-mode", "exclusive");
    return switch (m) {
      case "exclusive" -> false;
      case "shared" -> true;
      default ->
          throw w.error(
              "workload.lock-mode",
              "unknown lock mode '" + Echo.value(m) + "' (known: exclusive, shared)");
    };
  }

  /** lock-wait: block | try; returns true for try (non-blocking attempts, retries counted). */
  private static boolean tryLock(YamlMapping w) {
    String m = w.string("lock-wait", "block");
    return switch (m) {
      case "block" -> false;
      case "try" -> true;
      default ->
          throw w.error(
              "workload.lock-wait",
              "unknown lock wait '" + Echo.value(m) + "' (known: block, try)");
    };
  }

  /** A workload duration in milliseconds; its limits are the validator's. */
  private static long millis(YamlMapping w, String field, String defaultValue) {
    return w.duration(field, defaultValue, Duration.ZERO, Durations.LARGEST).toMillis();
  }

  private static WorkloadSpec lockFiles(YamlMapping w) {
    LockKind kind = lockKind(w, "fcntl");
    String release = w.string("release", "hold");
    LockRelease r =
        switch (release) {
          case "hold" -> LockRelease.LOCK_RELEASE_HOLD;
          case "unlock-each" -> LockRelease.LOCK_RELEASE_UNLOCK_EACH;
          default ->
              throw w.error(
                  "workload.release",
                  "unknown release '" + Echo.value(release) + "' (known: hold, unlock-each)");
        };
    String close = w.string("close", "end");
    FileClose c =
        switch (close) {
          case "end" -> FileClose.FILE_CLOSE_END;
          case "each" -> FileClose.FILE_CLOSE_EACH;
          default ->
              throw w.error(
                  "workload.close", "unknown close '" + Echo.value(close) + "' (known: end, each)");
        };
    return WorkloadSpec.newBuilder()
        .setLockFiles(
            LockFilesWorkload.newBuilder()
                .setDir(w.relativePath("dir", "lock-files.{node}"))
                .setProcesses((int) w.integer("processes", 10, 0, UINT32_MAX))
                .setFiles((int) w.integer("files", 1000, 0, UINT32_MAX))
                .setLock(kind)
                .setShared(shared(w))
                .setTryLock(tryLock(w))
                .setRelease(r)
                .setClose(c))
        .build();
  }

  private static WorkloadSpec pingPong(YamlMapping w) {
    String io = w.string("io", "none");
    PingPongIo pio =
        switch (io) {
          case "none" -> PingPongIo.PING_PONG_IO_NONE;
          case "read" -> PingPongIo.PING_PONG_IO_READ;
          case "write" -> PingPongIo.PING_PONG_IO_WRITE;
          case "read-write" -> PingPongIo.PING_PONG_IO_READ_WRITE;
          default ->
              throw w.error(
                  "workload.io",
                  "unknown io '" + Echo.value(io) + "' (known: none, read, write, read-write)");
        };
    return WorkloadSpec.newBuilder()
        .setPingPong(
            PingPongWorkload.newBuilder()
                .setFile(w.relativePath("file", "ping-pong.dat"))
                .setSlots((int) w.integer("slots", 0, 0, UINT32_MAX))
                .setProcesses((int) w.integer("processes", 1, 0, UINT32_MAX))
                .setLock(lockKind(w, "fcntl"))
                .setTryLock(tryLock(w))
                .setIo(pio)
                .setDurationMillis(millis(w, "duration", "10s"))
                .setWarmupMillis(millis(w, "warmup", "500ms")))
        .build();
  }

  private static WorkloadSpec hotLock(YamlMapping w) {
    LockKind kind = lockKind(w, "fcntl");
    HotLockWorkload.Builder b =
        HotLockWorkload.newBuilder()
            .setFile(w.relativePath("file", "hot-lock.dat"))
            .setProcesses((int) w.integer("processes", 2, 0, UINT32_MAX))
            .setThreads((int) w.integer("threads", 1, 0, UINT32_MAX))
            .setLock(kind)
            .setShared(shared(w))
            .setTryLock(tryLock(w))
            .setDurationMillis(millis(w, "duration", "10s"))
            .setHoldMicros(
                w.duration("hold", "0ms", Duration.ZERO, Durations.LARGEST).toNanos() / 1000);
    return WorkloadSpec.newBuilder().setHotLock(b).build();
  }

  private static WorkloadSpec metadata(YamlMapping w) {
    List<String> names = w.stringList("ops");
    MetadataWorkload.Builder b =
        MetadataWorkload.newBuilder()
            .setDir(w.relativePath("dir", "metadata.{node}"))
            .setFiles((int) w.integer("files", 1000, 0, UINT32_MAX))
            .setDepth((int) w.integer("depth", 0, 0, UINT32_MAX))
            .setThreads((int) w.integer("threads", 1, 0, UINT32_MAX));
    if (names == null) {
      names = List.of("create", "stat", "rename", "unlink");
    }
    w.used().put("ops", names);
    List<MetadataOp> ops = new ArrayList<>();
    for (String n : names) {
      MetadataOp op =
          switch (n) {
            case "create" -> MetadataOp.METADATA_OP_CREATE;
            case "stat" -> MetadataOp.METADATA_OP_STAT;
            case "rename" -> MetadataOp.METADATA_OP_RENAME;
            case "unlink" -> MetadataOp.METADATA_OP_UNLINK;
            default ->
                throw w.error(
                    "workload.ops",
                    "unknown operation '"
                        + Echo.value(n)
                        + "' (known: create, stat, rename, unlink)");
          };
      ops.add(op);
    }
    // the agent runs the phases in this order whatever the YAML's order
    ops.sort(java.util.Comparator.naturalOrder());
    b.addAllOps(ops);
    return WorkloadSpec.newBuilder().setMetadata(b).build();
  }
}
