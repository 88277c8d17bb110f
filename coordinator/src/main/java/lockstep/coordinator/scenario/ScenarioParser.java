package lockstep.coordinator.scenario;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import lockstep.agent.v1.LockFilesWorkload;
import lockstep.agent.v1.LockKind;
import lockstep.agent.v1.WorkloadSpec;
import lockstep.agent.v1.WriteWorkload;

/** Reads scenario YAML into a validated {@link Scenario}; every error names file and field. */
public final class ScenarioParser {
    static final long MAX_WRITE_SIZE = 1L << 42; // 4 TiB
    static final int MAX_REPEAT = 100;
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,79}");
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    public Scenario parse(Path file) {
        String text;
        try {
            text = Files.readString(file);
        } catch (NoSuchFileException e) {
            throw new ScenarioException("scenario " + file + ": file not found");
        } catch (IOException e) {
            throw new ScenarioException("scenario " + file + ": cannot be read: " + e.getMessage());
        }
        return parse(text, file.toString());
    }

    public Scenario parse(String yaml, String source) {
        JsonNode root;
        try {
            root = YAML.readTree(yaml);
        } catch (JsonProcessingException e) {
            JsonLocation at = e.getLocation();
            String where = at == null ? "" : " at line " + at.getLineNr() + ", column " + at.getColumnNr();
            throw new ScenarioException("scenario " + source + ": invalid YAML" + where + ": " + e.getOriginalMessage());
        }
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
        JsonNode workloadNode = top.node("workload");
        if (workloadNode == null) {
            throw top.error("workload", "is required");
        }
        Fields w = new Fields(workloadNode, "workload", source);
        String type = w.requiredString("type");
        WorkloadSpec spec = switch (type) {
            case "write" -> write(w);
            case "lock-files" -> lockFiles(w);
            default -> throw w.error("workload.type", "unknown workload type '" + type + "' (known: write, lock-files)");
        };
        w.rejectUnknown();
        top.rejectUnknown();
        Map<String, Object> params = new LinkedHashMap<>(w.used());
        return new Scenario(name, agents == null ? List.of() : List.copyOf(agents), plan, type, params, spec,
                timeout, startLead, skewWarn, repeat, ramp);
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
                .setFile(w.string("file", "lockstep-write.{node}"))
                .setBlockSizeBytes((int) w.size("block-size", "1MiB", 512, 64L << 20))
                .setSizeBytes(w.size("size", null, 1, MAX_WRITE_SIZE))
                .setFdatasync(w.bool("fdatasync", false))
                .setODirect(w.bool("o-direct", false))
                .setOSync(w.bool("o-sync", false));
        if (b.getODirect() && (b.getBlockSizeBytes() % 4096 != 0 || b.getSizeBytes() % b.getBlockSizeBytes() != 0)) {
            throw w.error("workload.o-direct", "needs block-size a multiple of 4KiB and size a multiple of block-size");
        }
        return WorkloadSpec.newBuilder().setWrite(b).build();
    }

    private static WorkloadSpec lockFiles(Fields w) {
        String lock = w.string("lock", "fcntl");
        LockKind kind = switch (lock) {
            case "fcntl" -> LockKind.LOCK_KIND_FCNTL;
            case "flock" -> LockKind.LOCK_KIND_FLOCK;
            case "ofd" -> LockKind.LOCK_KIND_OFD;
            default -> throw w.error("workload.lock", "unknown lock kind '" + lock + "' (known: fcntl, flock, ofd)");
        };
        return WorkloadSpec.newBuilder().setLockFiles(LockFilesWorkload.newBuilder()
                .setDir(w.string("dir", "lock-files.{node}"))
                .setProcesses((int) w.integer("processes", 10, 1, 1024))
                .setFiles((int) w.integer("files", 1000, 1, 1_000_000))
                .setLock(kind)).build();
    }
}
