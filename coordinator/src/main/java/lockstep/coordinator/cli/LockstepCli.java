package lockstep.coordinator.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.ServiceLoader;
import java.util.function.Consumer;
import lockstep.common.Logging;
import lockstep.common.Version;
import lockstep.coordinator.agent.AgentCallException;
import lockstep.coordinator.expect.ExpectationException;
import lockstep.coordinator.report.ReportInputException;
import lockstep.coordinator.results.RunFailedException;
import lockstep.coordinator.scenario.Echo;
import lockstep.coordinator.scenario.ScenarioException;
import org.apache.logging.log4j.LogManager;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code lockstep}: the coordinator's command line. Errors end as one line and an exit code. */
@Command(
    name = "lockstep",
    versionProvider = LockstepCli.VersionProvider.class,
    description =
        "Starts lock and I/O workloads on every cluster node at one instant and reports the scaling"
            + " loss.",
    subcommands = {
      RunCommand.class,
      AgentsCommand.class,
      DemoCommand.class,
      ReportCommand.class,
      CompareCommand.class,
      HistoryCommand.class,
      CertsCommand.class,
      CollectCommand.class,
      AbortCommand.class
    })
public final class LockstepCli implements Runnable {
  public static final int EXIT_RUN_FAILED = 1;
  public static final int EXIT_USAGE = 2;

  /** The run finished, and its figures broke an expectation (docs/operations.md). */
  public static final int EXIT_EXPECTATION_BROKEN = 3;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  public static void main(String[] args) {
    Path logDir = Path.of(System.getProperty("lockstep.log.dir", "logs"));
    boolean hadLogDir = Files.isDirectory(logDir);
    Logging.init("log4j2-coordinator.xml");
    int code = commandLine().execute(args);
    if (!hadLogDir) {
      removeIfEmpty(logDir);
    }
    System.exit(code);
  }

  /**
   * The log file is made only when something is logged, but Log4j makes its directory at start: a
   * command that logged nothing (a refused scenario, --help) leaves no empty logs/ behind.
   */
  static void removeIfEmpty(Path dir) {
    try {
      Files.deleteIfExists(dir);
    } catch (IOException e) {
      // not empty (something was logged) or not ours to remove: it stays
    }
  }

  /** The subcommands of other modules on the class path (the lab's). */
  private static final List<CliExtension> EXTENSIONS =
      ServiceLoader.load(CliExtension.class).stream().map(ServiceLoader.Provider::get).toList();

  public static CommandLine commandLine() {
    CommandLine cmd = new CommandLine(new LockstepCli());
    EXTENSIONS.forEach(x -> cmd.addSubcommand(x.command()));
    addStandardHelpOptions(cmd);
    cmd.setExecutionExceptionHandler(LockstepCli::handle);
    cmd.setParameterExceptionHandler(
        (ex, args) -> {
          PrintWriter err = ex.getCommandLine().getErr();
          err.println("lockstep: " + ex.getMessage());
          err.println(
              "Try '"
                  + ex.getCommandLine().getCommandSpec().qualifiedName()
                  + " --help' for usage.");
          err.flush();
          return EXIT_USAGE;
        });
    return cmd;
  }

  /** --help and --version on every command, set here once instead of on each {@code @Command}. */
  private static void addStandardHelpOptions(CommandLine cmd) {
    cmd.getCommandSpec().mixinStandardHelpOptions(true);
    cmd.getSubcommands().values().forEach(LockstepCli::addStandardHelpOptions);
  }

  private static int handle(Exception e, CommandLine cmd, CommandLine.ParseResult parsed) {
    PrintWriter err = cmd.getErr();
    // Messages carry text from scenarios, agents and the file system: control characters
    // are shown escaped, never sent to the terminal.
    Consumer<String> line = l -> err.println("lockstep: " + Echo.escaped(String.valueOf(l)));
    int code;
    if (e instanceof ScenarioException
        || e instanceof ReportInputException
        || e instanceof ExpectationException) {
      line.accept(e.getMessage());
      code = EXIT_USAGE;
    } else if (e instanceof RunFailedException rf) {
      rf.lines().forEach(line);
      code = EXIT_RUN_FAILED;
    } else if (e instanceof AgentCallException
        || e instanceof UncheckedIOException
        || EXTENSIONS.stream().anyMatch(x -> x.explains(e))) {
      line.accept(e.getMessage());
      code = EXIT_RUN_FAILED;
    } else {
      LogManager.getLogger(LockstepCli.class).error("unexpected failure", e);
      line.accept(
          "internal error: "
              + e
              + " (details in "
              + System.getProperty("lockstep.log.dir", "logs")
              + "/lockstep.log)");
      code = EXIT_RUN_FAILED;
    }
    err.flush();
    return code;
  }

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  static final class VersionProvider implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      return new String[] {"lockstep " + Version.get()};
    }
  }
}
