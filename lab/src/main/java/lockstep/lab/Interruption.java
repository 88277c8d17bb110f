package lockstep.lab;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * What Ctrl-C or SIGTERM does to a lab command that changes the lab. The JVM runs its shutdown
 * hooks while the command's own thread goes on, so the hook does the stopping: it cancels the
 * command's programs (ansible, ssh, QEMU's start: {@link Commands#cancel}, after which nothing new
 * starts), waits until the command's thread has let go of the lab, then runs the command's cleanup
 * (a booting {@code up} removes everything it made; the others leave the lab as it is). The JVM
 * then exits with 128 + the signal (130 for Ctrl-C).
 */
final class Interruption implements AutoCloseable {
  /** How long the children get to end after SIGTERM before SIGKILL. */
  static final Duration CHILD_GRACE = Duration.ofSeconds(3);

  /** How long the hook waits for the command's thread to unwind before it cleans up anyway. */
  static final Duration UNWIND_BOUND = Duration.ofSeconds(4);

  private final Commands commands;
  private final LabLog log;
  private final String command;
  private final Duration grace;
  private final CountDownLatch released = new CountDownLatch(1);
  private final Thread hook;
  private volatile Runnable cleanup = () -> {};

  private Interruption(Commands commands, LabLog log, String command, Duration grace) {
    this.commands = commands;
    this.log = log;
    this.command = command;
    this.grace = grace;
    this.hook = new Thread(this::interrupted, "lab-interrupt");
  }

  /** Armed until {@link #close()}: {@code command} names what is stopped ("up", "set"). */
  static Interruption during(String command, Commands commands, LabLog log) {
    return during(command, commands, log, CHILD_GRACE);
  }

  /**
   * As above; the command's programs get {@code grace} after SIGTERM (a run aborts its agents').
   */
  static Interruption during(String command, Commands commands, LabLog log, Duration grace) {
    Interruption i = new Interruption(commands, log, command, grace);
    Runtime.getRuntime().addShutdownHook(i.hook);
    return i;
  }

  /** What the hook does once the command has stopped (replaces what was set before). */
  void onInterrupt(Runnable r) {
    cleanup = r;
  }

  /** Whether the hook has begun (the command's thread then leaves the cleanup to it). */
  boolean happened() {
    return commands.cancelled();
  }

  private void interrupted() {
    log.say("interrupted: stopping lab " + command);
    commands.cancel("interrupted (lab " + command + ")", grace);
    try {
      if (!released.await(UNWIND_BOUND.toMillis(), TimeUnit.MILLISECONDS)) {
        log.say("lab " + command + " did not stop within " + UNWIND_BOUND.toSeconds() + " s");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    cleanup.run();
  }

  /** The command let go of the lab: after this the hook has nothing to wait for. */
  @Override
  public void close() {
    released.countDown();
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException e) {
      // the JVM is shutting down: the hook runs (or ran) and will find the lab let go
    }
  }
}
