package lockstep.agent.service;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.stream.Stream;
import lockstep.agent.v1.AbortRequest;
import lockstep.agent.v1.AgentServiceGrpc;
import lockstep.agent.v1.CleanupRequest;
import lockstep.agent.v1.GetResultRequest;
import lockstep.agent.v1.PrepareRequest;
import lockstep.agent.v1.StartRequest;
import lockstep.agent.v1.WorkloadSpec;
import lockstep.common.WallClock;
import lockstep.common.WorkloadKind;
import lockstep.testsupport.InProcessCluster;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.lifecycle.AfterProperty;
import net.jqwik.api.lifecycle.BeforeProperty;
import net.jqwik.api.statistics.Statistics;

/**
 * Random requests thrown at a real agent service over an in-process channel, with a real root
 * beside a directory it must never touch (reachable through a symlink planted in the root). Each
 * call either succeeds or fails with a Status that names what is wrong (never INTERNAL or UNKNOWN,
 * never a description too long for a trailer), within its deadline; afterwards nothing outside the
 * root has changed and the root holds only what was there before.
 */
class AgentFuzzTest {
  private static final Set<Status.Code> EXPECTED =
      Set.of(
          Status.Code.INVALID_ARGUMENT,
          Status.Code.FAILED_PRECONDITION,
          Status.Code.NOT_FOUND,
          Status.Code.ALREADY_EXISTS,
          Status.Code.RESOURCE_EXHAUSTED,
          Status.Code.PERMISSION_DENIED,
          Status.Code.OUT_OF_RANGE);

  private Path base;
  private Path root;
  private Path outside;
  private Map<String, String> outsideBefore;
  private Map<String, String> rootBefore;
  private InProcessCluster<AgentServer> cluster;
  private AgentServiceGrpc.AgentServiceBlockingStub stub;
  private int runs;

  @BeforeProperty
  void start() throws Exception {
    base = Files.createTempDirectory("lockstep-fuzz-");
    // the cluster's member n1 has its root at base/n1: made (with a planted link) before it starts
    root = Files.createDirectories(base.resolve("n1"));
    outside = Files.createDirectories(base.resolve("outside"));
    Files.writeString(outside.resolve("secret"), "must stay as it is\n");
    Files.writeString(
        outside.resolve("f.n1"), "a file a workload path could name through the link\n");
    Files.createSymbolicLink(root.resolve("link-out"), outside);
    outsideBefore = snapshot(outside);
    rootBefore = snapshot(root);
    cluster = InProcessCluster.of(AgentMembers.plain()).members(1).under(base).start();
    stub = AgentServiceGrpc.newBlockingStub(cluster.member(0).channel());
  }

  @AfterProperty
  void stop() throws Exception {
    cluster.close();
    try (Stream<Path> s = Files.walk(base)) {
      s.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }

  @Provide
  Arbitrary<String> paths() {
    return Arbitraries.frequencyOf(
        Tuple.of(3, Arbitraries.of("f.{node}", "d/e/f", "{node}/x")),
        Tuple.of(
            2,
            Arbitraries.of(
                "",
                ".",
                "..",
                "../outside/secret",
                "../../etc/passwd",
                "/etc/passwd",
                "/tmp/x",
                "link-out/secret",
                "link-out/f.{node}",
                "link-out",
                "a/../../outside/x",
                "x\u0000y",
                "x\ny",
                "\u001b[2J",
                "{node}{node}{node}",
                "d/".repeat(2000) + "f",
                "n".repeat(300))),
        Tuple.of(1, Arbitraries.strings().ofMaxLength(30)));
  }

  /**
   * Values that make a valid workload when every field holds one (so most tries get past prepare);
   * a field not named here takes 0 or 1. Small on purpose: worker processes are JVMs.
   */
  private static final Map<String, long[]> VALID =
      Map.ofEntries(
          Map.entry("size_bytes", new long[] {4096, 65536}),
          Map.entry("block_size_bytes", new long[] {512, 4096}),
          Map.entry("threads", new long[] {1, 2}),
          Map.entry("processes", new long[] {1, 2}),
          Map.entry("files", new long[] {1, 3}),
          Map.entry("depth", new long[] {0, 2}),
          Map.entry("slots", new long[] {0, 2, 3}),
          Map.entry("duration_millis", new long[] {50}),
          Map.entry("warmup_millis", new long[] {0, 10}),
          Map.entry("hold_micros", new long[] {0, 10}),
          Map.entry("seed", new long[] {0, 7}));

  private static Arbitrary<Long> edges(long... valid) {
    Arbitrary<Long> picked = Arbitraries.of(java.util.Arrays.stream(valid).boxed().toList());
    return Arbitraries.frequencyOf(
        Tuple.of(3, picked),
        Tuple.of(
            1, Arbitraries.of(0L, -1L, 1L, (long) Integer.MAX_VALUE, 4294967295L, Long.MAX_VALUE)));
  }

  /** Every kind of workload, each field of its message drawn by type; and no workload at all. */
  @Provide
  Arbitrary<WorkloadSpec> workloads() {
    List<Arbitrary<WorkloadSpec>> kinds = new ArrayList<>();
    for (WorkloadKind<?> kind : WorkloadKind.ALL) {
      List<Arbitrary<Consumer<Message.Builder>>> fields = new ArrayList<>();
      kind.newMessageBuilder().getDescriptorForType().getFields().forEach(f -> fields.add(set(f)));
      kinds.add(
          Combinators.combine(fields)
              .as(
                  setters -> {
                    Message.Builder b = kind.newMessageBuilder();
                    setters.forEach(s -> s.accept(b));
                    return kind.spec(b.build());
                  }));
    }
    kinds.add(Arbitraries.just(WorkloadSpec.getDefaultInstance()));
    return Arbitraries.oneOf(kinds);
  }

  /** Sets {@code f} to a value of its type: a path, a number near the edges, any enum number. */
  private Arbitrary<Consumer<Message.Builder>> set(FieldDescriptor f) {
    Arbitrary<Object> value =
        switch (f.getJavaType()) {
          case STRING -> paths().map(v -> v);
          case BOOLEAN -> Arbitraries.of(true, false);
          case INT -> edges(VALID.getOrDefault(f.getName(), new long[] {0, 1})).map(Long::intValue);
          case LONG -> edges(VALID.getOrDefault(f.getName(), new long[] {0, 1})).map(v -> v);
          case ENUM ->
              Arbitraries.integers()
                  .between(0, f.getEnumType().getValues().size())
                  .map(n -> f.getEnumType().findValueByNumberCreatingIfUnknown(n));
          default -> throw new IllegalStateException(f.getFullName() + ": no values for its type");
        };
    if (f.isRepeated()) {
      return value.list().ofMaxSize(5).map(vs -> b -> vs.forEach(v -> b.addRepeatedField(f, v)));
    }
    return value.map(v -> b -> b.setField(f, v));
  }

  private AgentServiceGrpc.AgentServiceBlockingStub call() {
    return stub.withDeadlineAfter(60, TimeUnit.SECONDS);
  }

  @Property(tries = 150)
  void everyRequestSucceedsOrFailsCleanlyAndNothingOutsideTheRootChanges(
      @ForAll("workloads") WorkloadSpec workload,
      @ForAll boolean start,
      @ForAll("runIds") String otherRunId)
      throws Exception {
    String runId = "fuzz-" + (++runs);
    boolean prepared =
        expectOkOrClean(
            () ->
                call()
                    .prepare(
                        PrepareRequest.newBuilder()
                            .setRunId(runId)
                            .setLeaseMillis(60_000)
                            .setWorkload(workload)
                            .build()));
    Statistics.label("workload").collect(workload.getKindCase());
    Statistics.label("prepare").collect(prepared ? "prepared" : "refused");
    // calls about a run nobody prepared
    expectOkOrClean(
        () ->
            call()
                .start(
                    StartRequest.newBuilder()
                        .setRunId(otherRunId)
                        .setStartAtUnixNanos(Long.MIN_VALUE)
                        .build()));
    expectOkOrClean(
        () -> call().getResult(GetResultRequest.newBuilder().setRunId(otherRunId).build()));
    expectOkOrClean(
        () ->
            call()
                .abort(
                    AbortRequest.newBuilder().setRunId(otherRunId).setReason("\u001b[2J").build()));
    if (prepared) {
      if (start) {
        expectOkOrClean(
            () ->
                call()
                    .start(
                        StartRequest.newBuilder()
                            .setRunId(runId)
                            .setStartAtUnixNanos(WallClock.nowNanos() + 1_000_000)
                            .build()));
        expectOkOrClean(() -> call().abort(AbortRequest.newBuilder().setRunId(runId).build()));
      }
      expectOkOrClean(() -> call().cleanup(CleanupRequest.newBuilder().setRunId(runId).build()));
      expectOkOrClean(
          () ->
              call()
                  .cleanup(
                      CleanupRequest.newBuilder().setRunId(runId).setRunDirOnly(true).build()));
    }
    assertThat(snapshot(outside))
        .as("outside the root after %s", workload)
        .isEqualTo(outsideBefore);
    assertThat(snapshot(root))
        .as("the root after %s and its cleanup", workload)
        .isEqualTo(rootBefore);
  }

  @Provide
  Arbitrary<String> runIds() {
    return Arbitraries.oneOf(
        Arbitraries.strings().ofMaxLength(20), Arbitraries.of("", "fuzz-1", "x".repeat(5000)));
  }

  private static boolean expectOkOrClean(Supplier<?> call) {
    try {
      call.get();
      return true;
    } catch (StatusRuntimeException e) {
      Status s = e.getStatus();
      assertThat(s.getCode()).as("status %s: %s", s.getCode(), s.getDescription()).isIn(EXPECTED);
      assertThat(s.getDescription()).isNotBlank();
      assertThat(s.getDescription().length())
          .isLessThanOrEqualTo(AgentService.MAX_DESCRIPTION + 100);
      return false;
    }
  }

  /**
   * Every path below {@code dir} (links not followed) with a digest of its content or link target.
   */
  private static Map<String, String> snapshot(Path dir) {
    Map<String, String> out = new TreeMap<>();
    try (Stream<Path> s = Files.walk(dir)) {
      s.forEach(p -> out.put(dir.relativize(p).toString(), digest(p)));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out;
  }

  private static String digest(Path p) {
    try {
      if (Files.isSymbolicLink(p)) {
        return "link:" + Files.readSymbolicLink(p);
      }
      if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
        return "dir";
      }
      return HexFormat.of()
          .formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(p)));
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
