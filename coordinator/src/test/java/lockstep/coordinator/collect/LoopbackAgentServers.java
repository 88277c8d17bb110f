package lockstep.coordinator.collect;

import io.grpc.netty.NettyServerBuilder;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import lockstep.agent.AgentConfig;
import lockstep.agent.AgentServer;
import lockstep.agent.security.AgentSecurity;
import lockstep.coordinator.agent.Agent;
import lockstep.coordinator.agent.AgentEnsemble;
import lockstep.coordinator.agent.ChannelSecurity;
import lockstep.coordinator.agent.GrpcAgent;

/**
 * Real agents n1..nN in this JVM on 127.0.0.1 (port 0, no TLS), roots ROOTS/nI, and the ensembles
 * that reach them.
 */
final class LoopbackAgentServers implements AutoCloseable {
  private final List<AgentServer> servers = new ArrayList<>();
  private final List<String> addresses = new ArrayList<>();
  private final List<AgentEnsemble> ensembles = new ArrayList<>();

  static LoopbackAgentServers start(Path roots, int count) throws IOException {
    LoopbackAgentServers agents = new LoopbackAgentServers();
    for (int i = 1; i <= count; i++) {
      Path root = Files.createDirectories(roots.resolve("n" + i)).toRealPath();
      AgentServer s =
          new AgentServer(
                  NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0)),
                  new AgentConfig("n" + i, root, "127.0.0.1", 0),
                  AgentSecurity.NONE)
              .start();
      agents.servers.add(s);
      agents.addresses.add("127.0.0.1:" + s.port());
    }
    return agents;
  }

  List<String> addresses() {
    return List.copyOf(addresses);
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
    servers.forEach(AgentServer::stop);
  }
}
