package lockstep.coordinator.collect;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import lockstep.agent.service.AgentMembers;
import lockstep.agent.service.AgentServer;
import lockstep.agent.v1.PrepareRequest;
import lockstep.agent.v1.WorkloadSpec;
import lockstep.agent.v1.WriteWorkload;
import lockstep.coordinator.agent.Agent;
import lockstep.coordinator.agent.AgentEnsemble;
import lockstep.coordinator.agent.ChannelSecurity;
import lockstep.coordinator.agent.GrpcAgent;
import lockstep.testsupport.InProcessCluster;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Real agents n1..nN in this JVM on 127.0.0.1 (the shared cluster fixture, no TLS), roots ROOTS/nI
 * in a directory of their own, and the ensembles of clients that reach them: a JUnit extension that
 * starts them before each test and closes them, and removes the roots, after it.
 */
final class LoopbackAgentServers implements BeforeEachCallback, AfterEachCallback {
  private final int count;
  private final List<AgentEnsemble> ensembles = new ArrayList<>();
  private Path roots;
  private InProcessCluster<AgentServer> cluster;

  private LoopbackAgentServers(int count) {
    this.count = count;
  }

  /** {@code count} agents, for {@code @RegisterExtension}. */
  static LoopbackAgentServers members(int count) {
    return new LoopbackAgentServers(count);
  }

  @Override
  public void beforeEach(ExtensionContext context) throws IOException {
    roots = Files.createTempDirectory("lockstep-agents");
    cluster =
        InProcessCluster.of(AgentMembers.plain())
            .members(count)
            .under(roots)
            .transport(InProcessCluster.Transport.LOOPBACK)
            .start();
  }

  @Override
  public void afterEach(ExtensionContext context) throws IOException {
    ensembles.forEach(AgentEnsemble::close);
    ensembles.clear();
    cluster.close();
    try (Stream<Path> all = Files.walk(roots)) {
      for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }

  /** The directory of the roots: ROOTS/n1 .. ROOTS/nN. */
  Path roots() {
    return roots;
  }

  List<String> addresses() {
    return cluster.members().stream().map(InProcessCluster.Member::address).toList();
  }

  /** An ensemble of clients of every member with {@code security}, closed with these servers. */
  AgentEnsemble connect(ChannelSecurity security) {
    return connect(security, addresses());
  }

  /** The same for the first {@code n} members only. */
  AgentEnsemble connectFirst(ChannelSecurity security, int n) {
    return connect(security, addresses().subList(0, n));
  }

  private AgentEnsemble connect(ChannelSecurity security, List<String> to) {
    AgentEnsemble e =
        new AgentEnsemble(to.stream().<Agent>map(a -> GrpcAgent.connect(a, security)).toList());
    ensembles.add(e);
    return e;
  }

  /**
   * A Prepare of step {@code agentRunId} run on two nodes: a 1 MiB write (4 KiB blocks) to w.NODE,
   * leased for {@code leaseMillis}.
   */
  static PrepareRequest twoNodeWrite(String agentRunId, long leaseMillis) {
    return PrepareRequest.newBuilder()
        .setRunId(agentRunId)
        .setLeaseMillis(leaseMillis)
        .setStepNodeCount(2)
        .setWorkload(
            WorkloadSpec.newBuilder()
                .setWrite(
                    WriteWorkload.newBuilder()
                        .setFile("w.{node}")
                        .setSizeBytes(1 << 20)
                        .setBlockSizeBytes(4096)))
        .build();
  }
}
