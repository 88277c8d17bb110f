package lockstep.common;

import io.grpc.Metadata;

/** The call metadata a coordinator sends and an agent reads to tell who is calling. */
public final class AgentHeaders {
  /**
   * A random id each coordinator sends: the owner of its runs when nothing stronger identifies it.
   */
  public static final Metadata.Key<String> OWNER =
      Metadata.Key.of("lockstep-owner", Metadata.ASCII_STRING_MARSHALLER);

  /** "Bearer TOKEN" when the agent requires the shared token. */
  public static final Metadata.Key<String> AUTHORIZATION =
      Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);

  private AgentHeaders() {}
}
