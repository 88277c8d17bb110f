package lockstep.coordinator.cli;

import java.util.ServiceLoader;

/**
 * A subcommand of {@code lockstep} that lives in another module (the lab's {@code lockstep lab}),
 * found with {@link ServiceLoader} when its jar is on the class path.
 */
public interface CliExtension {
  /** The picocli command object ({@code @Command}-annotated). */
  Object command();

  /**
   * Whether {@code e} is this extension's failure that the user caused or can act on: then its
   * message is printed as one line and the exit code is 1, with no stack trace.
   */
  boolean explains(Exception e);
}
