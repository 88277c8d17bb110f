package lockstep.coordinator.collect;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import lockstep.agent.service.AgentMembers;
import lockstep.agent.service.AgentServer;
import lockstep.coordinator.agent.Agent;
import lockstep.coordinator.agent.AgentEnsemble;
import lockstep.coordinator.agent.ChannelSecurity;
import lockstep.coordinator.agent.GrpcAgent;
import lockstep.testsupport.InProcessCluster;

/**
 * Real agents n1..nN in this JVM on 127.0.0.1 (the shared cluster fixture, no TLS), roots ROOTS/nI,
 * and the ensembles of clients that reach them, closed with them.
 */
final class LoopbackAgentServers implements AutoCloseable {
  private final InProcessCluster<AgentServer> cluster;
  private final List<AgentEnsemble> ensembles = new ArrayList<>();

  private LoopbackAgentServers(InProcessCluster<AgentServer> cluster) {
    this.cluster = cluster;
  }

  static LoopbackAgentServers start(Path roots, int count) throws IOException {
    return new LoopbackAgentServers(
        InProcessCluster.of(AgentMembers.plain())
            .members(count)
            .under(roots)
            .transport(InProcessCluster.Transport.LOOPBACK)
            .start());
  }

  List<String> addresses() {
    return cluster.members().stream().map(InProcessCluster.Member::address).toList();
  }

  /** An ensemble of clients of {@code to} with {@code security}, closed with these servers. */
  AgentEnsemble connect(ChannelSecurity security, List<String> to) {
    AgentEnsemble e =
        new AgentEnsemble(to.stream().<Agent>map(a -> GrpcAgent.connect(a, security)).toList());
    ensembles.add(e);
    return e;
  }

  @Override
  public void close() {
    ensembles.forEach(AgentEnsemble::close);
    cluster.close();
  }
}
