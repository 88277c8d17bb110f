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

/** Reads scenario YAML into a validated {@link Scenario}; every error names file and field. */
public final class ScenarioParser {
    static final long MAX_WRITE_SIZE = 1L << 42; // 4 TiB
    static final int MAX_REPEAT = 100;
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,79}");
    static final List<String> TYPES = List.of("write", "read", "lock-files", "ping-pong", "hot-lock", "metadata");

    public Scenario parse(Path file) {
        return parse(YamlFiles.read(file, "scenario"), file.toString());
    }

    public Scenario parse(String yaml, String source) {
        JsonNode root = YamlFiles.parse(yaml, "scenario " + source);
        if (root == null || root.isMissingNode()) {
            throw new ScenarioException("scenario " + source + ": is empty");
        }
        Fields top = new Fields(root, "", source);
        String name = top.requiredString("name");
        if (!NAME.matcher(name).matches()) {
            throw top.error("name", "'" + name + "' must be letters, digits, '.', '_' or '-' (at most 80)");
        }
        List<String> agents = top.stringList("agents");
        List<PlanStep> plan = plan(top, top.stringList("plan"));
        Duration timeout = top.duration("timeout", "10m", Duration.ofSeconds(1), Duration.ofHours(24));
        Duration startLead = top.duration("start-lead", "500ms", Duration.ofMillis(50), Duration.ofMinutes(5));
        double skewWarn = top.integer("skew-warn-percent", 5, 0, 100) / 100.0;
        int repeat = (int) top.integer("repeat", 1, 1, MAX_REPEAT);
        List<Integer> ramp = PlanFields.ramp(top, plan);
        boolean telemetry = top.bool("telemetry", true);
        JsonNode workloadNode = top.node("workload");
        if (workloadNode == null) {
            throw top.error("workload", "is required");
        }
        Fields w = new Fields(workloadNode, "workload", source);
        String type = w.requiredString("type");
        WorkloadSpec spec = switch (type) {
            case "write" -> write(w);
            case "read" -> read(w);
            case "lock-files" -> lockFiles(w);
            case "ping-pong" -> pingPong(w);
            case "hot-lock" -> hotLock(w);
            case "metadata" -> metadata(w);
            default -> throw w.error("workload.type", "unknown workload type '" + type + "' (known: " + String.join(", ", TYPES) + ")");
        };
        w.rejectUnknown();
        top.rejectUnknown();
        Map<String, Object> params = new LinkedHashMap<>(w.used());
        Scenario scenario = new Scenario(name, agents == null ? List.of() : List.copyOf(agents), plan, type, params, spec,
                timeout, startLead, skewWarn, repeat, ramp, telemetry);
        if (agents != null && !agents.isEmpty()) {
            checkNodeCount(scenario, agents.size(), source);
        }
        return scenario;
    }

    /**
     * Checks what depends on how many nodes run together: a ping-pong ring needs at least
     * nodes x processes + 1 slots.
     */
    public static void checkNodeCount(Scenario scenario, int nodes, String source) {
        WorkloadSpec spec = scenario.workload();
        if (spec.hasPingPong() && spec.getPingPong().getSlots() > 0) {
            int participants = nodes * spec.getPingPong().getProcesses();
            if (spec.getPingPong().getSlots() < participants + 1) {
                throw new ScenarioException("scenario " + source + ": workload.slots: " + spec.getPingPong().getSlots()
                        + " slots for " + participants + " participants (" + nodes + " node(s) x "
                        + spec.getPingPong().getProcesses() + " process(es)); the ring needs at least " + (participants + 1));
            }
        }
    }

    private static List<PlanStep> plan(Fields top, List<String> names) {
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
                throw top.error("plan", "unknown step '" + n + "' (known: solo, all, ramp)");
            }
            plan.add(s);
        }
        return List.copyOf(plan);
    }

    private static WorkloadSpec write(Fields w) {
        WriteWorkload.Builder b = WriteWorkload.newBuilder()
                .setFile(w.relativePath("file", "lockstep-write.{node}"))
                .setBlockSizeBytes((int) w.size("block-size", "1MiB", 512, 64L << 20))
                .setSizeBytes(w.size("size", null, 1, MAX_WRITE_SIZE))
                .setFdatasync(w.bool("fdatasync", false))
                .setODirect(w.bool("o-direct", false))
                .setOSync(w.bool("o-sync", false))
                .setPattern(pattern(w))
                .setThreads((int) w.integer("threads", 1, 1, 256))
                .setSeed(w.integer("seed", 1, 0, Long.MAX_VALUE));
        checkBlocks(w, b.getSizeBytes(), b.getBlockSizeBytes(), b.getODirect(), b.getThreads());
        return WorkloadSpec.newBuilder().setWrite(b).build();
    }

    private static WorkloadSpec read(Fields w) {
        ReadWorkload.Builder b = ReadWorkload.newBuilder()
                .setFile(w.relativePath("file", "lockstep-read.{node}"))
                .setBlockSizeBytes((int) w.size("block-size", "1MiB", 512, 64L << 20))
                .setSizeBytes(w.size("size", null, 1, MAX_WRITE_SIZE))
                .setODirect(w.bool("o-direct", false))
                .setPattern(pattern(w))
                .setThreads((int) w.integer("threads", 1, 1, 256))
                .setSeed(w.integer("seed", 1, 0, Long.MAX_VALUE));
        checkBlocks(w, b.getSizeBytes(), b.getBlockSizeBytes(), b.getODirect(), b.getThreads());
        return WorkloadSpec.newBuilder().setRead(b).build();
    }

    private static void checkBlocks(Fields w, long size, int block, boolean direct, int threads) {
        if (direct && (block % 4096 != 0 || size % block != 0)) {
            throw w.error("workload.o-direct", "needs block-size a multiple of 4KiB and size a multiple of block-size");
        }
        long blocks = (size + block - 1) / block;
        if (threads > blocks) {
            throw w.error("workload.threads", threads + " threads for " + blocks + " block(s): each thread needs at least one");
        }
    }

    private static AccessPattern pattern(Fields w) {
        String p = w.string("pattern", "sequential");
        return switch (p) {
            case "sequential" -> AccessPattern.ACCESS_PATTERN_SEQUENTIAL;
            case "random" -> AccessPattern.ACCESS_PATTERN_RANDOM;
            default -> throw w.error("workload.pattern", "unknown pattern '" + p + "' (known: sequential, random)");
        };
    }

    private static LockKind lockKind(Fields w, String defaultKind, boolean flockAllowed) {
        String lock = w.string("lock", defaultKind);
        LockKind kind = switch (lock) {
            case "fcntl" -> LockKind.LOCK_KIND_FCNTL;
            case "flock" -> LockKind.LOCK_KIND_FLOCK;
            case "ofd" -> LockKind.LOCK_KIND_OFD;
            default -> throw w.error("workload.lock", "unknown lock kind '" + lock + "' (known: fcntl, flock, ofd)");
        };
        if (!flockAllowed && kind == LockKind.LOCK_KIND_FLOCK) {
            throw w.error("workload.lock", "flock locks whole files only; this workload locks byte ranges (use fcntl or ofd)");
        }
        return kind;
    }

    /** lock-mode: exclusive | shared; returns true for shared. */
    private static boolean shared(Fields w) {
        String m = w.string("lock-mode", "exclusive");
        return switch (m) {
            case "exclusive" -> false;
            case "shared" -> true;
            default -> throw w.error("workload.lock-mode", "unknown lock mode '" + m + "' (known: exclusive, shared)");
        };
    }

    /** lock-wait: block | try; returns true for try (non-blocking attempts, retries counted). */
    private static boolean tryLock(Fields w) {
        String m = w.string("lock-wait", "block");
        return switch (m) {
            case "block" -> false;
            case "try" -> true;
            default -> throw w.error("workload.lock-wait", "unknown lock wait '" + m + "' (known: block, try)");
        };
    }

    private static long millis(Fields w, String field, String defaultValue, Duration min) {
        return w.duration(field, defaultValue, min, Duration.ofHours(24)).toMillis();
    }

    private static String sharedFile(Fields w, String defaultName) {
        String file = w.relativePath("file", defaultName);
        if (file.contains("{node}")) {
            throw w.error("workload.file", "'" + file + "' contains {node}, but every node must use the same file"
                    + " (each agent's root points at the same shared directory)");
        }
        return file;
    }

    private static WorkloadSpec lockFiles(Fields w) {
        LockKind kind = lockKind(w, "fcntl", true);
        String release = w.string("release", "hold");
        LockRelease r = switch (release) {
            case "hold" -> LockRelease.LOCK_RELEASE_HOLD;
            case "unlock-each" -> LockRelease.LOCK_RELEASE_UNLOCK_EACH;
            default -> throw w.error("workload.release", "unknown release '" + release + "' (known: hold, unlock-each)");
        };
        String close = w.string("close", "end");
        FileClose c = switch (close) {
            case "end" -> FileClose.FILE_CLOSE_END;
            case "each" -> FileClose.FILE_CLOSE_EACH;
            default -> throw w.error("workload.close", "unknown close '" + close + "' (known: end, each)");
        };
        return WorkloadSpec.newBuilder().setLockFiles(LockFilesWorkload.newBuilder()
                .setDir(w.relativePath("dir", "lock-files.{node}"))
                .setProcesses((int) w.integer("processes", 10, 1, 1024))
                .setFiles((int) w.integer("files", 1000, 1, 1_000_000))
                .setLock(kind)
                .setShared(shared(w))
                .setTryLock(tryLock(w))
                .setRelease(r)
                .setClose(c)).build();
    }

    private static WorkloadSpec pingPong(Fields w) {
        String io = w.string("io", "none");
        PingPongIo pio = switch (io) {
            case "none" -> PingPongIo.PING_PONG_IO_NONE;
            case "read" -> PingPongIo.PING_PONG_IO_READ;
            case "write" -> PingPongIo.PING_PONG_IO_WRITE;
            case "read-write" -> PingPongIo.PING_PONG_IO_READ_WRITE;
            default -> throw w.error("workload.io", "unknown io '" + io + "' (known: none, read, write, read-write)");
        };
        return WorkloadSpec.newBuilder().setPingPong(PingPongWorkload.newBuilder()
                .setFile(sharedFile(w, "ping-pong.dat"))
                .setSlots((int) w.integer("slots", 0, 0, 1_000_000))
                .setProcesses((int) w.integer("processes", 1, 1, 256))
                .setLock(lockKind(w, "fcntl", false))
                .setTryLock(tryLock(w))
                .setIo(pio)
                .setDurationMillis(millis(w, "duration", "10s", Duration.ofMillis(100)))
                .setWarmupMillis(w.duration("warmup", "500ms", Duration.ZERO, Duration.ofMinutes(10)).toMillis())).build();
    }

    private static WorkloadSpec hotLock(Fields w) {
        LockKind kind = lockKind(w, "fcntl", true);
        HotLockWorkload.Builder b = HotLockWorkload.newBuilder()
                .setFile(sharedFile(w, "hot-lock.dat"))
                .setProcesses((int) w.integer("processes", 2, 1, 256))
                .setThreads((int) w.integer("threads", 1, 1, 256))
                .setLock(kind)
                .setShared(shared(w))
                .setTryLock(tryLock(w))
                .setDurationMillis(millis(w, "duration", "10s", Duration.ofMillis(100)))
                .setHoldMicros(w.duration("hold", "0ms", Duration.ZERO, Duration.ofSeconds(10)).toNanos() / 1000);
        if (kind == LockKind.LOCK_KIND_FCNTL && b.getThreads() > 1) {
            throw w.error("workload.threads", "fcntl locks belong to the process, so threads of one process do not"
                    + " contend; use processes, or lock: ofd or flock");
        }
        return WorkloadSpec.newBuilder().setHotLock(b).build();
    }

    private static WorkloadSpec metadata(Fields w) {
        List<String> names = w.stringList("ops");
        MetadataWorkload.Builder b = MetadataWorkload.newBuilder()
                .setDir(w.relativePath("dir", "metadata.{node}"))
                .setFiles((int) w.integer("files", 1000, 1, 10_000_000))
                .setDepth((int) w.integer("depth", 0, 0, 64))
                .setThreads((int) w.integer("threads", 1, 1, 256));
        if (names == null) {
            names = List.of("create", "stat", "rename", "unlink");
        }
        w.used().put("ops", names);
        if (names.isEmpty()) {
            throw w.error("workload.ops", "is empty (choose from create, stat, rename, unlink)");
        }
        java.util.EnumSet<MetadataOp> ops = java.util.EnumSet.noneOf(MetadataOp.class);
        for (String n : names) {
            MetadataOp op = switch (n) {
                case "create" -> MetadataOp.METADATA_OP_CREATE;
                case "stat" -> MetadataOp.METADATA_OP_STAT;
                case "rename" -> MetadataOp.METADATA_OP_RENAME;
                case "unlink" -> MetadataOp.METADATA_OP_UNLINK;
                default -> throw w.error("workload.ops", "unknown operation '" + n + "' (known: create, stat, rename, unlink)");
            };
            if (!ops.add(op)) {
                throw w.error("workload.ops", "'" + n + "' is listed twice");
            }
        }
        ops.forEach(b::addOps);
        return WorkloadSpec.newBuilder().setMetadata(b).build();
    }
}
