package lockstep.agent.workload;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicLong;
import jnr.constants.platform.Errno;
import lockstep.agent.fs.Dir;
import lockstep.agent.fs.Posix;
import lockstep.agent.fs.PosixException;
import lockstep.agent.fs.RootDir;
import lockstep.agent.fs.RootedPaths;
import lockstep.agent.fs.WallClockWait;
import lockstep.agent.fs.WorkloadErrors;
import lockstep.agent.v1.MetadataOp;
import lockstep.agent.v1.MetadataWorkload;
import lockstep.agent.v1.OperationResult;
import lockstep.agent.v1.RunState;
import lockstep.agent.v1.WorkloadResult;
import lockstep.agent.worker.Threads;
import lockstep.common.LatencyHistograms;
import lockstep.common.WallClock;
import lockstep.common.WorkloadField;
import org.HdrHistogram.Histogram;

/**
 * mdtest-like metadata phases with {@code threads} threads of the agent. Files live in
 * DIR/d1/.../dDEPTH (made at prepare), named NODE-tTHREAD-fI so nodes sharing one directory never
 * collide. Phases, in this order and each a barrier over the threads: create (open
 * O_CREAT|O_EXCL|O_WRONLY + close), stat (stat(2)), rename (rename(2) to NAME.r in the same
 * directory), unlink (unlink(2)). One op is one such call; each phase has its own count, time and
 * latency histogram.
 */
public final class MetadataOpsWorkload implements Workload {

  private final MetadataWorkload spec;
  private final RootedPaths paths;
  private final Posix posix = Posix.get();
  private final Path dir;
  private final Path leaf;
  private final boolean shared;
  private final int threads;
  private final EnumSet<MetadataOp> ops = EnumSet.noneOf(MetadataOp.class);
  private final CreatedDirs createdDirs;
  private final String leafPrefix;
  private Dir leafDir;
  private int leafFd = -1;
  private final AtomicLong done = new AtomicLong();
  private volatile boolean stopped;

  public MetadataOpsWorkload(MetadataWorkload spec, RootedPaths paths) {
    this.spec = spec;
    this.paths = paths;
    ops.addAll(spec.getOpsList());
    this.threads = Math.max(1, spec.getThreads());
    this.shared = !spec.getDir().contains("{node}");
    this.dir = paths.resolve("dir", spec.getDir());
    Path p = dir;
    for (int d = 1; d <= spec.getDepth(); d++) {
      p = p.resolve("d" + d);
    }
    this.leaf = p;
    this.leafPrefix = p + "/";
    this.createdDirs = new CreatedDirs(paths);
  }

  /** The operation's name, as the scenario's {@code ops} writes it: create, stat, ... */
  static String opName(MetadataOp op) {
    return WorkloadField.wordOf(op.getValueDescriptor());
  }

  private String name(int thread, int i) {
    return paths.node() + "-t" + thread + "-f" + i;
  }

  private String original(int thread, int i) {
    return name(thread, i);
  }

  private String renamed(int thread, int i) {
    return name(thread, i) + ".r";
  }

  @Override
  public String opName() {
    return "metadata op";
  }

  @Override
  public void prepare() {
    Dir d = createdDirs.create(leaf);
    try {
      String mine = paths.node() + "-t";
      d.refuseExisting(name -> isRunName(name, mine)); // creates use O_EXCL
    } catch (RuntimeException e) {
      d.close();
      throw e;
    }
    // From here on, a file at one of the run's names is the run's (cleanup removes it).
    leafDir = d;
    leafFd = d.fd();
    if (!ops.contains(MetadataOp.METADATA_OP_CREATE)) {
      for (int t = 0; t < threads; t++) {
        for (int i = 0; i < spec.getFiles(); i++) {
          create(original(t, i));
        }
      }
    }
  }

  private boolean isRunName(String name, String mine) {
    if (!name.startsWith(mine)) {
      return false;
    }
    String rest = name.substring(mine.length());
    if (rest.endsWith(".r")) {
      rest = rest.substring(0, rest.length() - 2);
    }
    int f = rest.indexOf("-f");
    try {
      return f > 0
          && Integer.parseInt(rest.substring(0, f)) < threads
          && Integer.parseInt(rest.substring(f + 2)) < spec.getFiles();
    } catch (NumberFormatException e) {
      return false;
    }
  }

  // Every call is relative to the leaf's descriptor (opened beneath the root at prepare), one
  // name, never followed if it is a link: the same one syscall per op as a path-based call.
  private void create(String name) {
    String path = leafPrefix + name;
    int fd = posix.openat(leafFd, name, CREATE_FLAGS, 0644, path);
    posix.close(fd, path);
  }

  private static final int CREATE_FLAGS =
      Posix.O_WRONLY | Posix.O_CREAT | Posix.O_EXCL | Posix.O_NOFOLLOW | Posix.O_CLOEXEC;

  @Override
  public List<String> paths() {
    return List.of(paths.relative(leaf) + "/" + paths.node() + "-t<thread>-f<file>[.r]");
  }

  @Override
  public long opsSoFar() {
    return done.get();
  }

  @Override
  public WorkloadResult.Builder run(long startAtUnixNanos) {
    WorkloadResult.Builder result = WorkloadResult.newBuilder().setOpName(opName());
    Histogram all = LatencyHistograms.create();
    if (!WallClockWait.until(startAtUnixNanos, () -> stopped)) {
      return result.setState(RunState.RUN_STATE_ABORTED);
    }
    long started = WallClock.nowNanos();
    // its phases run on threads of their own: this one is not the first operation's
    WallClockWait.firstOpDone();
    result.setStartedUnixNanos(started).setFirstOpUnixNanos(started);
    PosixException error = null;
    for (MetadataOp op : ops) {
      if (stopped) {
        break;
      }
      Phase phase = runPhase(op);
      result.addOperations(
          OperationResult.newBuilder()
              .setName(opName(op))
              .setOps(phase.ops)
              .setFirstOpUnixNanos(phase.start)
              .setEndUnixNanos(phase.end)
              .setLatencyHistogram(LatencyHistograms.encode(phase.latency)));
      all.add(phase.latency);
      if (phase.error != null) {
        error = phase.error;
        break;
      }
    }
    result
        .setEndUnixNanos(WallClock.nowNanos())
        .setOps(done.get())
        .setLatencyHistogram(LatencyHistograms.encode(all));
    if (error != null) {
      result.setError(WorkloadErrors.of(error, paths));
      return result.setState(RunState.RUN_STATE_FAILED);
    }
    return result.setState(stopped ? RunState.RUN_STATE_ABORTED : RunState.RUN_STATE_SUCCEEDED);
  }

  private static final class Phase {
    long start;
    long end;
    long ops;
    Histogram latency = LatencyHistograms.create();
    PosixException error;
  }

  private Phase runPhase(MetadataOp op) {
    Phase phase = new Phase();
    Histogram[] histograms = new Histogram[threads];
    long[] counts = new long[threads];
    PosixException[] errors = new PosixException[threads];
    CyclicBarrier go = new CyclicBarrier(threads, () -> phase.start = WallClock.nowNanos());
    for (int t = 0; t < threads; t++) {
      histograms[t] = LatencyHistograms.create();
    }
    boolean unlinkRenamed = ops.contains(MetadataOp.METADATA_OP_RENAME);
    boolean completed =
        Threads.runAll(
            threads,
            "metadata-" + opName(op),
            thread -> {
              try {
                go.await();
              } catch (InterruptedException | BrokenBarrierException e) {
                return;
              }
              Histogram h = histograms[thread];
              try {
                for (int i = 0; i < spec.getFiles() && !stopped; i++) {
                  long t0 = System.nanoTime();
                  switch (op) {
                    case METADATA_OP_CREATE -> create(original(thread, i));
                    case METADATA_OP_STAT ->
                        posix.statat(leafFd, original(thread, i), leafPrefix + original(thread, i));
                    case METADATA_OP_RENAME ->
                        posix.renameat(
                            leafFd,
                            original(thread, i),
                            renamed(thread, i),
                            leafPrefix + original(thread, i));
                    case METADATA_OP_UNLINK -> {
                      String n = unlinkRenamed ? renamed(thread, i) : original(thread, i);
                      posix.unlinkat(leafFd, n, false, leafPrefix + n);
                    }
                    default -> throw new IllegalStateException(op.toString());
                  }
                  h.recordValue(System.nanoTime() - t0);
                  counts[thread]++;
                  done.incrementAndGet();
                }
              } catch (PosixException e) {
                errors[thread] = e;
                stopped = true;
              }
            },
            () -> {
              stopped = true;
              go.reset();
            });
    if (!completed) {
      stopped = true;
    }
    phase.end = WallClock.nowNanos();
    for (int t = 0; t < threads; t++) {
      phase.latency.add(histograms[t]);
      phase.ops += counts[t];
      if (phase.error == null && errors[t] != null) {
        phase.error = errors[t];
      }
    }
    return phase;
  }

  @Override
  public void abort() {
    stopped = true;
  }

  @Override
  public CleanupReport cleanup() {
    long removed = 0;
    List<String> leftovers = new ArrayList<>();
    if (leafDir != null) {
      // The leaf may be shared with other nodes (and their cleanup): resolve it afresh, beneath
      // the root, rather than through the descriptor from prepare (GlusterFS answers ESTALE there).
      leafDir.close();
      leafDir = null;
      try (RootDir rootDir = paths.openDir();
          Dir d = rootDir.dir(paths.below(leaf))) {
        removed = removeRunFiles(d, leftovers);
      } catch (PosixException e) {
        if (!e.is(Errno.ENOENT)) { // the directory and its files are gone already
          leftovers.add(paths.relative(leaf) + ": " + e.detail());
        }
      }
    }
    for (String l : createdDirs.removeAll()) {
      if (!(shared && l.endsWith(": directory not empty"))) {
        leftovers.add(l);
      }
    }
    return new CleanupReport(removed, leftovers);
  }

  /**
   * Prepare found none of these names and creates use O_EXCL: a regular file at one is the run's.
   */
  private long removeRunFiles(Dir d, List<String> leftovers) {
    long removed = 0;
    {
      for (int t = 0; t < threads; t++) {
        for (int i = 0; i < spec.getFiles(); i++) {
          for (String f : List.of(original(t, i), renamed(t, i))) {
            try {
              if (d.removeIfCreated(f, null)) {
                removed++;
              }
            } catch (PosixException e) {
              leftovers.add(paths.relative(leaf.resolve(f)) + ": " + e.detail());
            }
          }
        }
      }
    }
    return removed;
  }
}
