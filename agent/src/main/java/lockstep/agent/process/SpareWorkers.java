package lockstep.agent.process;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * Worker JVMs started before a step needs them ({@code lockstep-agent --spare-workers N}): after a
 * step's workers are released the agent starts as many again (at most N), each of which loads what
 * every workload needs and waits; the next step's prepare hands them their tasks instead of
 * starting JVMs. A spare is a fresh process that has run nothing: a step's workers are still new
 * processes, each used once. Off (0) by default: on a real node a worker starts in well under a
 * second, and nothing idles there unless asked; on an emulated guest a worker's start took 17-60 s
 * of each step's prepare.
 *
 * <p>Spares start in the step's cleanup; the next prepare waits until every spare has loaded before
 * it reports its workers ready, so that no JVM starts during a measured window.
 */
public final class SpareWorkers {
  private static final Logger LOG = LogManager.getLogger(SpareWorkers.class);

  /** The most a node keeps ({@code --spare-workers}). */
  public static final int MAX = 64;

  /** How long a prepare waits for the spares it did not take to finish loading. */
  static final long LOADED_TIMEOUT_MILLIS = 120_000;

  private static volatile SpareWorkers pool = new SpareWorkers(0);

  private final int most;
  private final Deque<WorkerProcess> idle = new ArrayDeque<>();
  private boolean closed;

  SpareWorkers(int most) {
    this.most = most;
  }

  /** This agent keeps up to {@code most} spares from now on (0: none); the old pool is closed. */
  public static void keep(int most) {
    if (most < 0 || most > MAX) {
      throw new IllegalArgumentException("--spare-workers: " + most + " is outside 0.." + MAX);
    }
    SpareWorkers old = pool;
    pool = new SpareWorkers(most);
    old.close();
  }

  public static SpareWorkers get() {
    return pool;
  }

  /**
   * A live spare whose JVM has the compiler a task with {@code c2} needs, or null. Its other
   * options are the agent's for every worker (a spare started before the class-data archive was
   * written just does not map it).
   */
  synchronized WorkerProcess take(boolean c2) {
    for (Iterator<WorkerProcess> it = idle.iterator(); it.hasNext(); ) {
      WorkerProcess w = it.next();
      if (!w.alive()) {
        it.remove();
        w.kill();
      } else if (w.c2() == c2) {
        it.remove();
        return w;
      }
    }
    return null;
  }

  /**
   * After a step that had {@code count} workers with these options: spares started until there are
   * that many (at most the pool's size). A spare that cannot start is logged and left out.
   */
  void refill(boolean c2, int count) {
    List<WorkerProcess> started = new ArrayList<>();
    synchronized (this) {
      if (closed) {
        return;
      }
      idle.removeIf(
          w -> {
            boolean gone = !w.alive();
            if (gone) {
              w.kill();
            }
            return gone;
          });
      int want = Math.min(count, most) - idle.size();
      for (int i = 0; i < want; i++) {
        try {
          WorkerProcess w = WorkerProcess.launch(c2);
          idle.add(w);
          started.add(w);
        } catch (IOException | RuntimeException e) {
          LOG.warn("a spare worker could not start: {}", e.toString());
          break;
        }
      }
    }
    if (!started.isEmpty()) {
      LOG.debug("started {} spare worker(s)", started.size());
    }
  }

  /**
   * Waits until every spare has loaded (bounded): a spare still starting would take the CPU from
   * the step about to be measured. One that does not load in time is ended.
   */
  void awaitLoaded() {
    List<WorkerProcess> now;
    synchronized (this) {
      now = new ArrayList<>(idle);
    }
    long end = System.nanoTime() + LOADED_TIMEOUT_MILLIS * 1_000_000L;
    for (WorkerProcess w : now) {
      long left = Math.max(0, (end - System.nanoTime()) / 1_000_000L);
      if (!w.awaitLoaded(left)) {
        synchronized (this) {
          idle.remove(w);
        }
        w.kill();
        LOG.warn("a spare worker (pid {}) did not load within its bound; ended", w.pid());
      }
    }
  }

  /** The spares waiting now (for tests and the agent's stop). */
  public synchronized List<Long> pids() {
    return idle.stream().map(WorkerProcess::pid).toList();
  }

  /** Ends every spare; none is started after. */
  public void close() {
    List<WorkerProcess> all;
    synchronized (this) {
      closed = true;
      all = new ArrayList<>(idle);
      idle.clear();
    }
    all.forEach(WorkerProcess::kill);
  }

  /** Ends the spares of this agent (its stop). */
  public static void closeAll() {
    pool.close();
  }
}
