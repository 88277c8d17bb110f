package lockstep.common;

import java.util.concurrent.ThreadFactory;

/** Threads of an executor that never keep the JVM alive, named for thread dumps and logs. */
public final class DaemonThreads {
  private DaemonThreads() {}

  /** A factory of daemon threads called {@code name}. */
  public static ThreadFactory named(String name) {
    return r -> {
      Thread t = new Thread(r, name);
      t.setDaemon(true);
      return t;
    };
  }
}
