package lockstep.common;

import static lockstep.common.WorkloadField.choice;
import static lockstep.common.WorkloadField.count;
import static lockstep.common.WorkloadField.flag;
import static lockstep.common.WorkloadField.micros;
import static lockstep.common.WorkloadField.millis;
import static lockstep.common.WorkloadField.path;
import static lockstep.common.WorkloadField.size;
import static lockstep.common.WorkloadField.wordList;
import static lockstep.common.WorkloadField.words;

import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.ToLongFunction;
import lockstep.agent.v1.HotLockWorkload;
import lockstep.agent.v1.LockFilesWorkload;
import lockstep.agent.v1.LockKind;
import lockstep.agent.v1.MetadataOp;
import lockstep.agent.v1.MetadataWorkload;
import lockstep.agent.v1.PingPongIo;
import lockstep.agent.v1.PingPongWorkload;
import lockstep.agent.v1.ReadWorkload;
import lockstep.agent.v1.WorkloadSpec;
import lockstep.agent.v1.WriteWorkload;

/**
 * One workload type, described once (as fio describes each I/O engine in one table): its scenario
 * name, its fields, its rules, what one operation is and in which unit it is counted, whether it
 * runs in the agent's threads or in worker processes, and the figures the agent's guards and
 * telemetry need. The scenario parser, the validator, the agent, the reports and the verdicts ask
 * it; none of them switches on a workload's name.
 *
 * <p>A new workload type is its proto message (a field of {@code WorkloadSpec.kind}), one constant
 * here, listed in {@link #ALL}, its agent workload class (the agent's factory table names it) and
 * its section in docs/workloads.md.
 *
 * @param <M> the kind's proto message
 */
public final class WorkloadKind<M extends Message> {
  /** Where the measured operations run. */
  public enum Execution {
    /** Threads of the agent's own process. */
    AGENT_THREADS,
    /**
     * Worker processes the agent starts (fcntl locks belong to a process, so contention between
     * threads of one JVM would not be contention).
     */
    WORKER_PROCESSES
  }

  public static final WorkloadKind<WriteWorkload> WRITE =
      new Builder<>("write", WorkloadSpec.KindCase.WRITE, WriteWorkload.class)
          .counting("MB/s", "write", "write throughput", true)
          .fields(
              path("file", "lockstep-write.{node}"),
              size("block-size", "block_size_bytes", "1MiB"),
              size("size", "size_bytes", null),
              flag("fdatasync"),
              flag("o-direct"),
              flag("o-sync"),
              words("pattern", "sequential", "pattern"),
              count("threads", 1),
              count("seed", 1))
          .rules(
              w -> {
                WorkloadRules.blocks(
                    w.getSizeBytes(), w.getBlockSizeBytes(), w.getODirect(), w.getThreads());
                WorkloadRules.pattern(w.getPattern());
              })
          .workers(w -> w.getThreads())
          .pageCacheWrites(w -> !w.getFdatasync() && !w.getODirect() && !w.getOSync())
          .bytesToLayOut(WriteWorkload::getSizeBytes)
          .expectedWork(WriteWorkload::getSizeBytes)
          .build();

  public static final WorkloadKind<ReadWorkload> READ =
      new Builder<>("read", WorkloadSpec.KindCase.READ, ReadWorkload.class)
          .counting("MB/s", "read", "read throughput", true)
          .fields(
              path("file", "lockstep-read.{node}"),
              size("block-size", "block_size_bytes", "1MiB"),
              size("size", "size_bytes", null),
              flag("o-direct"),
              words("pattern", "sequential", "pattern"),
              count("threads", 1),
              count("seed", 1))
          .rules(
              r -> {
                WorkloadRules.blocks(
                    r.getSizeBytes(), r.getBlockSizeBytes(), r.getODirect(), r.getThreads());
                WorkloadRules.pattern(r.getPattern());
              })
          .workers(r -> r.getThreads())
          .bytesToLayOut(ReadWorkload::getSizeBytes)
          .expectedWork(ReadWorkload::getSizeBytes)
          .build();

  /** Seed 1: processes x files, each opened O_SYNC|O_RDWR|O_CREAT and locked. */
  public static final WorkloadKind<LockFilesWorkload> LOCK_FILES =
      new Builder<>("lock-files", WorkloadSpec.KindCase.LOCK_FILES, LockFilesWorkload.class)
          .counting("locks/s", "lock", "lock rate", false)
          .inWorkerProcesses()
          .takesLocks(LockFilesWorkload::getLock)
          .fields(
              words("lock", "fcntl", "lock kind"),
              words("release", "hold", "release"),
              words("close", "end", "close"),
              path("dir", "lock-files.{node}"),
              count("processes", 10),
              count("files", 1000),
              choice("lock-mode", "shared", "lock mode", "exclusive", "shared"),
              choice("lock-wait", "try_lock", "lock wait", "block", "try"))
          .rules(
              l -> {
                WorkloadRules.range("processes", l.getProcesses(), 1, 1024);
                WorkloadRules.range("files", l.getFiles(), 1, 1_000_000);
                WorkloadRules.lockKind(l.getLock(), true);
                WorkloadRules.known("release", l.getRelease(), "must be hold or unlock-each");
                WorkloadRules.known("close", l.getClose(), "must be end or each");
              })
          .workers(LockFilesWorkload::getProcesses)
          .filesCreated(
              "workload.processes x workload.files", l -> (long) l.getProcesses() * l.getFiles())
          .openFilesPerWorker(LockFilesWorkload::getFiles)
          .expectedWork(l -> (long) l.getProcesses() * l.getFiles())
          .build();

  /** ctdb's ping_pong across nodes, on one shared file. */
  public static final WorkloadKind<PingPongWorkload> PING_PONG =
      new Builder<>("ping-pong", WorkloadSpec.KindCase.PING_PONG, PingPongWorkload.class)
          .counting("locks/s", "lock", "lock rate", false)
          .inWorkerProcesses()
          .takesLocks(PingPongWorkload::getLock)
          .sharedFile()
          .fields(
              words("io", "none", "io"),
              path("file", "ping-pong.dat"),
              count("slots", 0),
              count("processes", 1),
              words("lock", "fcntl", "lock kind"),
              choice("lock-wait", "try_lock", "lock wait", "block", "try"),
              millis("duration", "10s"),
              millis("warmup", "500ms"))
          .rules(
              p -> {
                WorkloadRules.sharedFile("file", p.getFile());
                WorkloadRules.processes(p.getProcesses());
                WorkloadRules.lockKind(p.getLock(), false);
                WorkloadRules.known("io", p.getIo(), "must be none, read, write or read-write");
                WorkloadRules.duration("duration", p.getDurationMillis());
                WorkloadRules.atMost("warmup", p.getWarmupMillis(), 10L * 60 * 1000, "ms", "10 m");
                WorkloadRules.range("slots", p.getSlots(), 0, 1_000_000);
              })
          .nodeRules(WorkloadValidator::ringSlots)
          .workers(PingPongWorkload::getProcesses)
          .timedMillis(
              "with warm-up before and after", p -> p.getDurationMillis() + 2 * p.getWarmupMillis())
          .warmUp(PingPongWorkload::getWarmupMillis)
          .checksCoherence(
              "with io: read-write", p -> p.getIo() == PingPongIo.PING_PONG_IO_READ_WRITE)
          .build();

  /** Every worker of every node contends for one lock. */
  public static final WorkloadKind<HotLockWorkload> HOT_LOCK =
      new Builder<>("hot-lock", WorkloadSpec.KindCase.HOT_LOCK, HotLockWorkload.class)
          .counting("locks/s", "lock", "lock rate", false)
          .inWorkerProcesses()
          .takesLocks(HotLockWorkload::getLock)
          .sharedFile()
          .sharesOfOneLock()
          .fields(
              words("lock", "fcntl", "lock kind"),
              path("file", "hot-lock.dat"),
              count("processes", 2),
              count("threads", 1),
              choice("lock-mode", "shared", "lock mode", "exclusive", "shared"),
              choice("lock-wait", "try_lock", "lock wait", "block", "try"),
              millis("duration", "10s"),
              micros("hold", "0ms"))
          .rules(
              h -> {
                WorkloadRules.sharedFile("file", h.getFile());
                WorkloadRules.processes(h.getProcesses());
                WorkloadRules.threads(h.getThreads());
                WorkloadRules.lockKind(h.getLock(), true);
                if (h.getLock() == LockKind.LOCK_KIND_FCNTL && h.getThreads() > 1) {
                  throw new InvalidWorkloadException(
                      "threads",
                      "fcntl locks belong to the process, so threads of one process do not"
                          + " contend; use processes, or lock: ofd or flock");
                }
                WorkloadRules.duration("duration", h.getDurationMillis());
                WorkloadRules.atMost("hold", h.getHoldMicros(), 10_000_000, "us", "10 s");
              })
          .workers(h -> Math.max(1, h.getProcesses()) * Math.max(1, h.getThreads()))
          .openFilesPerWorker(HotLockWorkload::getThreads)
          .timedMillis(null, HotLockWorkload::getDurationMillis)
          .build();

  /** mdtest-like create, stat, rename, unlink phases. */
  public static final WorkloadKind<MetadataWorkload> METADATA =
      new Builder<>("metadata", WorkloadSpec.KindCase.METADATA, MetadataWorkload.class)
          .counting("ops/s", "metadata op", "metadata rate", false)
          .fields(
              path("dir", "metadata.{node}"),
              count("files", 1000),
              count("depth", 0),
              count("threads", 1),
              wordList("ops", "operation"))
          .rules(
              m -> {
                WorkloadRules.range("files", m.getFiles(), 1, 10_000_000);
                WorkloadRules.range("depth", m.getDepth(), 0, 64);
                WorkloadRules.threads(m.getThreads());
                metadataOps(m.getOpsList());
              })
          .workers(MetadataWorkload::getThreads)
          .filesCreated(
              "workload.threads x workload.files",
              m -> (long) Math.max(1, m.getThreads()) * m.getFiles())
          .build();

  /** Every kind, in the order of WorkloadSpec's fields. */
  public static final List<WorkloadKind<?>> ALL =
      List.of(WRITE, READ, LOCK_FILES, PING_PONG, HOT_LOCK, METADATA);

  private final String name;
  private final WorkloadSpec.KindCase specCase;
  private final Class<M> messageType;
  private final String unit;
  private final String opName;
  private final String measure;
  private final boolean countsBytes;
  private final Execution execution;
  private final Function<M, LockKind> lockKind;
  private final boolean sharedFile;
  private final boolean sharesOfOneLock;
  private final List<WorkloadField> fields;
  private final Consumer<M> rules;
  private final NodeRule<M> nodeRules;
  private final ToLongFunction<M> workers;
  private final ToLongFunction<M> filesCreated;
  private final String filesCreatedFrom;
  private final ToLongFunction<M> openFilesPerWorker;
  private final ToLongFunction<M> timedMillis;
  private final String timedNote;
  private final ToLongFunction<M> bytesToLayOut;
  private final ToLongFunction<M> expectedWork;
  private final String coherenceNote;
  private final Predicate<M> checksCoherence;
  private final Predicate<M> pageCacheWrites;
  private final ToLongFunction<M> warmUpMillis;

  /** A rule that depends on how many nodes run the step together. */
  @FunctionalInterface
  interface NodeRule<M> {
    void check(M message, int nodes);
  }

  private WorkloadKind(Builder<M> b) {
    this.name = b.name;
    this.specCase = b.specCase;
    this.messageType = b.messageType;
    this.unit = b.unit;
    this.opName = b.opName;
    this.measure = b.measure;
    this.countsBytes = b.countsBytes;
    this.execution = b.execution;
    this.lockKind = b.lockKind;
    this.sharedFile = b.sharedFile;
    this.sharesOfOneLock = b.sharesOfOneLock;
    this.fields = List.copyOf(b.fields);
    this.rules = b.rules;
    this.nodeRules = b.nodeRules;
    this.workers = b.workers;
    this.filesCreated = b.filesCreated;
    this.filesCreatedFrom = b.filesCreatedFrom;
    this.openFilesPerWorker = b.openFilesPerWorker;
    this.timedMillis = b.timedMillis;
    this.timedNote = b.timedNote;
    this.bytesToLayOut = b.bytesToLayOut;
    this.expectedWork = b.expectedWork;
    this.coherenceNote = b.coherenceNote;
    this.checksCoherence = b.checksCoherence;
    this.pageCacheWrites = b.pageCacheWrites;
    this.warmUpMillis = b.warmUpMillis;
  }

  /** The kind of a spec; an empty spec is {@link InvalidWorkloadException} on field "type". */
  public static WorkloadKind<?> of(WorkloadSpec spec) {
    for (WorkloadKind<?> k : ALL) {
      if (k.specCase == spec.getKindCase()) {
        return k;
      }
    }
    throw new InvalidWorkloadException("type", "no workload given");
  }

  /** The kind a scenario names ({@code type: lock-files}), or null. */
  public static WorkloadKind<?> named(String name) {
    return ALL.stream().filter(k -> k.name.equals(name)).findFirst().orElse(null);
  }

  /** Every kind's scenario name, in order. */
  public static List<String> names() {
    return ALL.stream().map(WorkloadKind::name).toList();
  }

  /** The names of the kinds that run in worker processes. */
  static List<String> workerProcessNames() {
    return ALL.stream()
        .filter(k -> k.execution == Execution.WORKER_PROCESSES)
        .map(WorkloadKind::name)
        .toList();
  }

  /** The scenario's {@code type}: write, read, lock-files, ping-pong, hot-lock, metadata. */
  public String name() {
    return name;
  }

  public WorkloadSpec.KindCase specCase() {
    return specCase;
  }

  /** Throughput's unit: MB/s (10^6 bytes/s, as dd prints), locks/s or ops/s. */
  public String unit() {
    return unit;
  }

  /** What one counted operation is: "write", "read", "lock", "metadata op". */
  public String opName() {
    return opName;
  }

  /** What the throughput is, in words: "write throughput", "lock rate". */
  public String measure() {
    return measure;
  }

  /** True when throughput is bytes moved, false when it is operations. */
  public boolean countsBytes() {
    return countsBytes;
  }

  public Execution execution() {
    return execution;
  }

  /** Whether an operation is a lock call (flock, fcntl, OFD). */
  public boolean takesLocks() {
    return lockKind != null;
  }

  /** The kind of lock a spec of this kind takes; {@code LOCK_KIND_UNSPECIFIED} if it takes none. */
  public LockKind lockKind(WorkloadSpec spec) {
    return lockKind == null ? LockKind.LOCK_KIND_UNSPECIFIED : lockKind.apply(message(spec));
  }

  /** Whether every node works on one file (no {node} in its path). */
  public boolean sharedFile() {
    return sharedFile;
  }

  /** Whether each node's share of the operations is a result of its own (one lock, many takers). */
  public boolean sharesOfOneLock() {
    return sharesOfOneLock;
  }

  /** The kind's fields in the order a scenario's workload lists them in reports. */
  public List<WorkloadField> fields() {
    return fields;
  }

  /** The kind's message in a spec of this kind. */
  public M message(WorkloadSpec spec) {
    if (spec.getKindCase() != specCase) {
      throw new IllegalArgumentException("a " + spec.getKindCase() + " spec is not " + name);
    }
    return messageType.cast(spec.getField(specField()));
  }

  /** A spec holding {@code message}. */
  public WorkloadSpec spec(Message message) {
    return WorkloadSpec.newBuilder().setField(specField(), messageType.cast(message)).build();
  }

  /** A builder of the kind's message. */
  public Message.Builder newMessageBuilder() {
    return WorkloadSpec.newBuilder().newBuilderForField(specField());
  }

  private FieldDescriptor specField() {
    return WorkloadSpec.getDescriptor().findFieldByNumber(specCase.getNumber());
  }

  /** Throws {@link InvalidWorkloadException} naming the first field that breaks a rule. */
  void check(WorkloadSpec spec) {
    rules.accept(message(spec));
  }

  /** The rules that depend on how many nodes run the step together (ping-pong's ring). */
  public void checkNodes(WorkloadSpec spec, int nodes) {
    nodeRules.check(message(spec), nodes);
  }

  /** Threads or processes x threads that do the measured operations at once (at least 1). */
  public int workers(WorkloadSpec spec) {
    return (int) Math.max(1, workers.applyAsLong(message(spec)));
  }

  /** Files one run creates on a node. */
  public long filesCreated(WorkloadSpec spec) {
    return filesCreated.applyAsLong(message(spec));
  }

  /** The fields whose product {@link #filesCreated} is, as a refusal names them. */
  public String filesCreatedFrom() {
    return filesCreatedFrom;
  }

  /** Files a worker process holds open at once (at least 1). */
  public long openFilesPerWorker(WorkloadSpec spec) {
    return Math.max(1, openFilesPerWorker.applyAsLong(message(spec)));
  }

  /**
   * How long a workload that runs for a time runs, warm-up included; 0 for one that runs to done.
   */
  public long timedMillis(WorkloadSpec spec) {
    return timedMillis.applyAsLong(message(spec));
  }

  /** What {@link #timedMillis} counts beyond the duration ("with warm-up ..."), or null. */
  public String timedNote() {
    return timedNote;
  }

  /** Bytes of the file a node lays out at prepare or during the run (write, read); 0 for none. */
  public long bytesToLayOut(WorkloadSpec spec) {
    return bytesToLayOut.applyAsLong(message(spec));
  }

  /** Bytes or operations each node will do in all, for progress bars; 0 if unknown (timed). */
  public long expectedWork(WorkloadSpec spec) {
    return expectedWork.applyAsLong(message(spec));
  }

  /** Whether a run of this spec counts coherence errors (reads that missed another's write). */
  public boolean checksCoherence(WorkloadSpec spec) {
    return checksCoherence.test(message(spec));
  }

  /**
   * Whether a run of this spec may leave its writes in the page cache when it ends (buffered writes
   * without fdatasync, O_DIRECT or O_SYNC): its figure then includes no writeback.
   */
  public boolean pageCacheWrites(WorkloadSpec spec) {
    return pageCacheWrites.test(message(spec));
  }

  /** Whether the workers run unmeasured before the measured window (ping-pong's ring closing). */
  public boolean warmsUp() {
    return warmUpMillis != null;
  }

  /** How long the workers run before the measured window, in ms; 0 for a kind that does not. */
  public long warmUpMillis(WorkloadSpec spec) {
    return warmUpMillis == null ? 0 : warmUpMillis.applyAsLong(message(spec));
  }

  /**
   * The spec in the scenario's words, for reports: each field's YAML name and its value as a
   * scenario writes it ({@link WorkloadField#scenarioValue}), in the table's order, then {@code
   * instrumentation: false} when it is off. The scenario parser reads them back to the same spec.
   */
  public Map<String, Object> settings(WorkloadSpec spec) {
    M m = message(spec);
    Map<String, Object> out = new LinkedHashMap<>();
    for (WorkloadField f : fields) {
      out.put(
          f.yamlName(),
          f.scenarioValue(m.getField(m.getDescriptorForType().findFieldByName(f.protoName()))));
    }
    if (spec.getInstrumentationOff()) {
      out.put("instrumentation", false);
    }
    return out;
  }

  /** Whether some spec of this kind counts coherence errors. */
  public boolean canCheckCoherence() {
    return coherenceNote != null;
  }

  /** When a spec of this kind checks coherence ("with io: read-write"), or null if never. */
  public String coherenceNote() {
    return coherenceNote;
  }

  @Override
  public String toString() {
    return name;
  }

  private static void metadataOps(List<MetadataOp> ops) {
    if (ops.isEmpty()) {
      throw new InvalidWorkloadException(
          "ops", "is empty (choose from create, stat, rename, unlink)");
    }
    EnumSet<MetadataOp> seen = EnumSet.noneOf(MetadataOp.class);
    for (MetadataOp op : ops) {
      if (op == MetadataOp.METADATA_OP_UNSPECIFIED || op == MetadataOp.UNRECOGNIZED) {
        throw new InvalidWorkloadException("ops", "must name create, stat, rename or unlink");
      }
      if (!seen.add(op)) {
        throw new InvalidWorkloadException(
            "ops",
            "'"
                + op.name().substring("METADATA_OP_".length()).toLowerCase(Locale.ROOT)
                + "' is listed twice");
      }
    }
  }

  private static final class Builder<M extends Message> {
    private final String name;
    private final WorkloadSpec.KindCase specCase;
    private final Class<M> messageType;
    private String unit;
    private String opName;
    private String measure;
    private boolean countsBytes;
    private Execution execution = Execution.AGENT_THREADS;
    private Function<M, LockKind> lockKind;
    private boolean sharedFile;
    private boolean sharesOfOneLock;
    private List<WorkloadField> fields = List.of();
    private Consumer<M> rules = m -> {};
    private NodeRule<M> nodeRules = (m, n) -> {};
    private ToLongFunction<M> workers = m -> 1;
    private ToLongFunction<M> filesCreated = m -> 1;
    private String filesCreatedFrom = "workload";
    private ToLongFunction<M> openFilesPerWorker = m -> 1;
    private ToLongFunction<M> timedMillis = m -> 0;
    private String timedNote;
    private ToLongFunction<M> bytesToLayOut = m -> 0;
    private ToLongFunction<M> expectedWork = m -> 0;
    private String coherenceNote;
    private Predicate<M> checksCoherence = m -> false;
    private Predicate<M> pageCacheWrites = m -> false;
    private ToLongFunction<M> warmUpMillis;

    Builder(String name, WorkloadSpec.KindCase specCase, Class<M> messageType) {
      this.name = name;
      this.specCase = specCase;
      this.messageType = messageType;
    }

    Builder<M> counting(String unit, String opName, String measure, boolean countsBytes) {
      this.unit = unit;
      this.opName = opName;
      this.measure = measure;
      this.countsBytes = countsBytes;
      return this;
    }

    Builder<M> inWorkerProcesses() {
      this.execution = Execution.WORKER_PROCESSES;
      return this;
    }

    Builder<M> takesLocks(Function<M, LockKind> lockKind) {
      this.lockKind = lockKind;
      return this;
    }

    Builder<M> sharedFile() {
      this.sharedFile = true;
      return this;
    }

    Builder<M> sharesOfOneLock() {
      this.sharesOfOneLock = true;
      return this;
    }

    Builder<M> fields(WorkloadField... fields) {
      this.fields = List.of(fields);
      return this;
    }

    Builder<M> rules(Consumer<M> rules) {
      this.rules = rules;
      return this;
    }

    Builder<M> nodeRules(NodeRule<M> nodeRules) {
      this.nodeRules = nodeRules;
      return this;
    }

    Builder<M> workers(ToLongFunction<M> f) {
      this.workers = f;
      return this;
    }

    Builder<M> filesCreated(String from, ToLongFunction<M> f) {
      this.filesCreatedFrom = from;
      this.filesCreated = f;
      return this;
    }

    Builder<M> openFilesPerWorker(ToLongFunction<M> f) {
      this.openFilesPerWorker = f;
      return this;
    }

    Builder<M> timedMillis(String note, ToLongFunction<M> f) {
      this.timedNote = note;
      this.timedMillis = f;
      return this;
    }

    Builder<M> bytesToLayOut(ToLongFunction<M> f) {
      this.bytesToLayOut = f;
      return this;
    }

    Builder<M> expectedWork(ToLongFunction<M> f) {
      this.expectedWork = f;
      return this;
    }

    Builder<M> checksCoherence(String note, Predicate<M> f) {
      this.coherenceNote = note;
      this.checksCoherence = f;
      return this;
    }

    Builder<M> pageCacheWrites(Predicate<M> f) {
      this.pageCacheWrites = f;
      return this;
    }

    Builder<M> warmUp(ToLongFunction<M> f) {
      this.warmUpMillis = f;
      return this;
    }

    WorkloadKind<M> build() {
      return new WorkloadKind<>(this);
    }
  }
}
