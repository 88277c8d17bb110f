package lockstep.agent.service;

import io.grpc.netty.NettyServerBuilder;
import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import lockstep.agent.fs.MountInfo;
import lockstep.agent.fs.RealtimeWake;
import lockstep.agent.metrics.MetricsAddress;
import lockstep.agent.process.SpareWorkers;
import lockstep.agent.run.AgentConfig;
import lockstep.agent.security.AgentSecurity;
import lockstep.agent.security.SecurityOptions;
import lockstep.common.ListeningLine;
import lockstep.common.Logging;
import lockstep.common.Version;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code lockstep-agent --listen HOST:PORT --root DIR [--name NAME] [--tls-cert F --tls-key F
 * --tls-client-ca F] [--token-file F] [--insecure] [--metrics [HOST:]PORT [--metrics-public]]}.
 */
@Command(
    name = "lockstep-agent",
    mixinStandardHelpOptions = true,
    versionProvider = AgentMain.VersionProvider.class,
    description = "Runs Lockstep workloads on this node when a coordinator asks.")
public final class AgentMain implements Callable<Integer> {
  private static final Pattern NODE_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,62}");

  @Option(
      names = "--listen",
      defaultValue = "127.0.0.1:7070",
      paramLabel = "HOST:PORT",
      description = "Address to listen on; port 0 picks a free port (default: ${DEFAULT-VALUE}).")
  String listen;

  @Option(
      names = "--root",
      required = true,
      paramLabel = "DIR",
      description =
          "Directory every workload file lives under (on the file system to test). Repeat it to"
              + " serve several file systems from one agent: a run names its root (the inventory's"
              + " root:), the first is the default.")
  List<Path> roots;

  @Option(
      names = "--name",
      paramLabel = "NAME",
      description = "Node name in reports (default: host name).")
  String name;

  @CommandLine.Mixin SecurityOptions securityOptions = new SecurityOptions();

  @Option(
      names = "--metrics",
      paramLabel = "[HOST:]PORT",
      description =
          "Serve Prometheus/OpenMetrics on http://HOST:PORT/metrics (PORT alone: 127.0.0.1;"
              + " port 0 picks one). Off by default.")
  String metrics;

  @Option(
      names = "--metrics-public",
      description =
          "Allow --metrics on a non-loopback address (it has no authentication or TLS: anyone who"
              + " reaches it reads run ids, workload types and node counters).")
  boolean metricsPublic;

  @Option(
      names = "--spare-workers",
      defaultValue = "0",
      paramLabel = "N",
      description =
          "Keep up to N worker processes started ahead of the next step (0..64, default:"
              + " ${DEFAULT-VALUE}): a step's prepare then hands them their tasks instead of"
              + " starting JVMs. For nodes where a JVM starts slowly (emulated guests).")
  int spareWorkers;

  public static void main(String[] args) {
    Logging.init("log4j2-agent.xml");
    CommandLine cmd =
        new CommandLine(new AgentMain()).setExecutionExceptionHandler(AgentMain::fail);
    // Bad input: one line naming the option, exit 2 (no usage dump, no stack trace).
    cmd.setParameterExceptionHandler(
        (ex, a) -> {
          cmd.getErr().println("lockstep-agent: " + ex.getMessage());
          return 2;
        });
    System.exit(cmd.execute(args));
  }

  /** A failure at start (say, a port in use) is one line, not a stack trace. */
  private static int fail(Exception e, CommandLine cmd, CommandLine.ParseResult parsed) {
    cmd.getErr().println("lockstep-agent: " + e.getMessage());
    cmd.getErr().flush();
    return e instanceof StartupException ? 2 : 1;
  }

  static final class StartupException extends RuntimeException {
    StartupException(String message) {
      super(message);
    }
  }

  @Override
  public Integer call() throws IOException, InterruptedException {
    AgentConfig config = parse();
    String wake = RealtimeWake.switchError(System.getenv(RealtimeWake.SWITCH));
    if (wake != null) {
      throw new StartupException(wake);
    }
    MetricsAddress metricsAt = null;
    if (metrics != null) {
      try {
        metricsAt = MetricsAddress.parse(metrics, metricsPublic);
      } catch (MetricsAddress.InvalidMetricsAddress e) {
        throw new CommandLine.ParameterException(new CommandLine(this), e.getMessage());
      }
    } else if (metricsPublic) {
      throw new CommandLine.ParameterException(
          new CommandLine(this), "--metrics-public needs --metrics HOST:PORT");
    }
    AgentSecurity security =
        securityOptions.resolve(
            new CommandLine(this), config.listenHost(), System.getenv("LOCKSTEP_TOKEN"));
    if (securityOptions.insecure() && !security.authenticates()) {
      System.err.println(
          "lockstep-agent: WARNING: --insecure: listening on "
              + config.listenHost()
              + " with plaintext, unauthenticated gRPC; anyone who reaches the port can run"
              + " workloads under "
              + config.roots().stream().map(Path::toString).collect(Collectors.joining(", ")));
    }
    AgentServer server;
    try {
      server =
          new AgentServer(
                  NettyServerBuilder.forAddress(
                          new InetSocketAddress(config.listenHost(), config.listenPort()),
                          AgentCredentials.of(security))
                      // coordinators ping every 10 s (gRPC keepalive) to notice a frozen agent
                      .permitKeepAliveTime(5, TimeUnit.SECONDS)
                      .permitKeepAliveWithoutCalls(true),
                  config,
                  security)
              .start();
    } catch (IOException e) {
      Throwable cause = e.getCause() != null ? e.getCause() : e;
      String why =
          cause instanceof BindException
              ? cause.getMessage()
                  + " (another process holds it; pick another"
                  + " port, or port 0 for a free one)"
              : cause.toString();
      throw new StartupException("--listen " + listen + ": cannot listen: " + why);
    }
    SpareWorkers.keep(spareWorkers);
    startClockProbes(server, config.listenHost());
    server.rehearse(config.nodeName());
    String metricsLine = null;
    if (metricsAt != null) {
      try {
        int port =
            server.startMetrics(config.nodeName(), metricsAt.host(), metricsAt.port()).port();
        metricsLine =
            "lockstep-agent metrics on http://"
                + new MetricsAddress(metricsAt.host(), port)
                + "/metrics";
      } catch (IOException e) {
        server.stop();
        throw new StartupException("--metrics " + metrics + ": cannot listen: " + e.getMessage());
      }
    }
    String fs = MountInfo.of(config.root()).map(MountInfo::fsType).orElse("unknown");
    System.out.println(
        ListeningLine.format(
            Version.get(),
            config.listenHost(),
            server.port(),
            config.nodeName(),
            config.root().toString(),
            fs,
            security.describe()));
    for (Path more : config.roots().subList(1, config.roots().size())) {
      System.out.println(
          "lockstep-agent also serves root "
              + more
              + " ("
              + MountInfo.of(more).map(MountInfo::fsType).orElse("unknown")
              + ")");
    }
    if (metricsLine != null) {
      System.out.println(metricsLine);
    }
    System.out.flush();
    Runtime.getRuntime().addShutdownHook(new Thread(server::stop, "shutdown"));
    server.awaitTermination();
    return 0;
  }

  /**
   * UDP clock probes on the gRPC port's number (one number to open in a firewall or declare in a
   * pod), else on any free port; without them coordinators probe over gRPC, less exactly.
   */
  private static void startClockProbes(AgentServer server, String host) {
    try {
      server.startClockProbes(host, server.port());
    } catch (IOException sameNumberTaken) {
      try {
        server.startClockProbes(host, 0);
        System.err.println(
            "lockstep-agent: WARNING: UDP port "
                + server.port()
                + " is taken; clock probes on a free UDP port");
      } catch (IOException e) {
        System.err.println(
            "lockstep-agent: WARNING: no UDP clock probes on "
                + host
                + ": "
                + e.getMessage()
                + "; coordinators will probe the clock over gRPC (less exact offsets)");
      }
    }
  }

  private AgentConfig parse() {
    CommandLine cmd = new CommandLine(this);
    int colon = listen.lastIndexOf(':');
    if (colon <= 0) {
      throw new CommandLine.ParameterException(cmd, "--listen: '" + listen + "' is not HOST:PORT");
    }
    String host = listen.substring(0, colon).replace("[", "").replace("]", "");
    int port;
    try {
      port = Integer.parseInt(listen.substring(colon + 1));
    } catch (NumberFormatException e) {
      throw new CommandLine.ParameterException(
          cmd, "--listen: port '" + listen.substring(colon + 1) + "' is not a number");
    }
    if (port < 0 || port > 65535) {
      throw new CommandLine.ParameterException(
          cmd, "--listen: port " + port + " is outside 0..65535");
    }
    List<Path> real = new ArrayList<>();
    for (Path root : roots) {
      if (!Files.isDirectory(root) || !Files.isWritable(root)) {
        throw new CommandLine.ParameterException(
            cmd, "--root: " + root + " is not a writable directory");
      }
      try {
        Path r = root.toRealPath();
        if (real.contains(r)) {
          throw new CommandLine.ParameterException(
              cmd, "--root: " + root + " is given twice (as " + r + ")");
        }
        real.add(r);
      } catch (IOException e) {
        throw new CommandLine.ParameterException(cmd, "--root: " + root + ": " + e.getMessage());
      }
    }
    if (spareWorkers < 0 || spareWorkers > SpareWorkers.MAX) {
      throw new CommandLine.ParameterException(
          cmd, "--spare-workers: " + spareWorkers + " is outside 0.." + SpareWorkers.MAX);
    }
    String node = name != null ? name : defaultName();
    if (!NODE_NAME.matcher(node).matches()) {
      throw new CommandLine.ParameterException(
          cmd, "--name: '" + node + "' must be letters, digits, '.', '_' or '-' (at most 63)");
    }
    return new AgentConfig(node, real, host, port);
  }

  private static String defaultName() {
    String host = System.getenv("HOSTNAME");
    if (host == null || host.isBlank()) {
      try {
        host = InetAddress.getLocalHost().getHostName();
      } catch (UnknownHostException e) {
        host = "node";
      }
    }
    int dot = host.indexOf('.');
    return dot > 0 ? host.substring(0, dot) : host;
  }

  static final class VersionProvider implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      return new String[] {"lockstep-agent " + Version.get()};
    }
  }
}
