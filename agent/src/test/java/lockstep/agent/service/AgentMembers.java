package lockstep.agent.service;

import lockstep.agent.run.AgentConfig;
import lockstep.agent.run.RunRegistry;
import lockstep.agent.security.AgentSecurity;
import lockstep.testsupport.InProcessCluster;
import lockstep.testsupport.InProcessCluster.MemberFactory;
import lockstep.testsupport.InProcessCluster.Started;

/**
 * Agents as members of an {@link InProcessCluster}: real agent servers (runs, workers, files) in
 * this JVM, for the agent's tests and the coordinator's (through this module's test jar).
 */
public final class AgentMembers {
  private AgentMembers() {}

  /** Agents without security; Describe offers no UDP clock probe port. */
  public static MemberFactory<AgentServer> plain() {
    return factory(AgentSecurity.NONE, false);
  }

  /** Agents that also answer clock probes over loopback UDP, as a real agent does. */
  public static MemberFactory<AgentServer> withClockProbes() {
    return factory(AgentSecurity.NONE, true);
  }

  /** Agents behind {@code security} (token check, caller identity; TLS is the transport's). */
  public static MemberFactory<AgentServer> secured(AgentSecurity security) {
    return factory(security, false);
  }

  /** Plain agents whose registries build each run's workload with {@code workloads}. */
  public static MemberFactory<AgentServer> building(RunRegistry.Workloads workloads) {
    return (builder, name, root, host) -> {
      AgentServer s =
          new AgentServer(
                  builder,
                  new RunRegistry(new AgentConfig(name, root, host, 0), workloads),
                  AgentSecurity.NONE)
              .start();
      return new Started<>(s, s::port, s::stop);
    };
  }

  /**
   * Plain agents that serve a second root beside the cluster's ({@code ROOT-second}, made here), as
   * {@code lockstep-agent --root A --root B} does.
   */
  public static MemberFactory<AgentServer> withSecondRoot() {
    return (builder, name, root, host) -> {
      java.nio.file.Path second = java.nio.file.Files.createDirectories(secondRoot(root));
      AgentServer s =
          new AgentServer(
                  builder,
                  new AgentConfig(name, java.util.List.of(root, second), host, 0),
                  AgentSecurity.NONE)
              .start();
      return new Started<>(s, s::port, s::stop);
    };
  }

  private static MemberFactory<AgentServer> factory(AgentSecurity security, boolean clockProbes) {
    return (builder, name, root, host) -> {
      AgentServer s =
          new AgentServer(
                  builder,
                  new AgentConfig(name, root, clockProbes ? "127.0.0.1" : host, 0),
                  security)
              .start();
      if (clockProbes) {
        s.startClockProbes("127.0.0.1", 0);
      }
      return new Started<>(s, s::port, s::stop);
    };
  }

  /** The second root {@link #withSecondRoot} gives the member whose root is {@code root}. */
  public static java.nio.file.Path secondRoot(java.nio.file.Path root) {
    return root.resolveSibling(root.getFileName() + "-second");
  }

  /** A Prepare of one 1 MiB file, w.{node}: a run whose file shows where its root is. */
  public static lockstep.agent.v1.PrepareRequest smallWrite(String runId) {
    return lockstep.agent.v1.PrepareRequest.newBuilder()
        .setRunId(runId)
        .setWorkload(
            lockstep.agent.v1.WorkloadSpec.newBuilder()
                .setWrite(
                    lockstep.agent.v1.WriteWorkload.newBuilder()
                        .setFile("w.{node}")
                        .setSizeBytes(1 << 20)
                        .setBlockSizeBytes(4096)))
        .build();
  }

  /** {@code n} plain agents in process, roots under {@code base}. */
  public static InProcessCluster<AgentServer> inProcess(java.nio.file.Path base, int n)
      throws java.io.IOException {
    return InProcessCluster.of(plain()).members(n).under(base).start();
  }
}
