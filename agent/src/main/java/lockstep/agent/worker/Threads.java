package lockstep.agent.worker;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.IntConsumer;

/** The in-agent fan-out of the thread-based workloads. */
public final class Threads {
  private Threads() {}

  /** A thread of a fan-out ended with an exception its body did not handle. */
  public static final class ThreadFailedException extends RuntimeException {
    ThreadFailedException(String threadName, Throwable cause) {
      super("thread " + threadName + " failed: " + cause, cause);
    }

    /** The message alone: it already names the thread and the cause's class. */
    @Override
    public String toString() {
      return getMessage();
    }
  }

  /**
   * Runs {@code body} for 0 .. n-1, each on its own thread (on the calling thread when n is 1, so a
   * single-threaded run has no hand-off), and returns when all have ended. Returns false if the
   * caller was interrupted while waiting.
   *
   * <p>A body that throws fails the whole fan-out: {@code stopOthers} is called at once so the
   * other threads can end early, and once all have ended the first failure is thrown as a {@link
   * ThreadFailedException} naming its thread (later ones are attached as suppressed).
   */
  public static boolean runAll(int n, String name, IntConsumer body, Runnable stopOthers) {
    if (n == 1) {
      body.accept(0);
      return true;
    }
    AtomicReferenceArray<Throwable> failures = new AtomicReferenceArray<>(n);
    List<Thread> running = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      final int index = i;
      Thread t =
          new Thread(
              () -> {
                try {
                  body.accept(index);
                } catch (Throwable e) {
                  failures.set(index, e);
                  stopOthers.run();
                }
              },
              name + "-" + i);
      running.add(t);
      t.start();
    }
    boolean completed = true;
    for (Thread t : running) {
      try {
        t.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        completed = false;
      }
    }
    ThreadFailedException failed = null;
    for (int i = 0; i < n; i++) {
      Throwable e = failures.get(i);
      if (e == null) {
        continue;
      }
      if (failed == null) {
        failed = new ThreadFailedException(running.get(i).getName(), e);
      } else {
        failed.addSuppressed(e);
      }
    }
    if (failed != null) {
      throw failed;
    }
    return completed;
  }
}
