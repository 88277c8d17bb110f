package lockstep.agent.service;

import io.grpc.InsecureServerCredentials;
import io.grpc.ServerCredentials;
import io.grpc.TlsServerCredentials;
import java.io.IOException;
import lockstep.agent.security.AgentSecurity;

/** The gRPC server credentials of an agent's {@link AgentSecurity}. */
public final class AgentCredentials {
  private AgentCredentials() {}

  /** TLS credentials requiring a client certificate signed by the client CA, or plaintext. */
  public static ServerCredentials of(AgentSecurity security) throws IOException {
    if (!security.tls()) {
      return InsecureServerCredentials.create();
    }
    TlsServerCredentials.Builder b =
        TlsServerCredentials.newBuilder()
            .keyManager(security.tlsCert().toFile(), security.tlsKey().toFile());
    if (security.tlsClientCa() != null) {
      b.trustManager(security.tlsClientCa().toFile())
          .clientAuth(TlsServerCredentials.ClientAuth.REQUIRE);
    }
    return b.build();
  }
}
