package lockstep.coordinator.agent;

import io.grpc.Status;

/**
 * A call to an agent that failed: its message names the agent and the call; the gRPC status code
 * and what went wrong are kept apart for the caller.
 */
public final class AgentCallException extends RuntimeException {
  private final Status.Code code;
  private final String detail;

  public AgentCallException(String address, String call, Status status) {
    this(status.getCode(), "agent " + address + ": " + call + ": ", detail(status));
  }

  /**
   * As above; when the agent refused what {@code security} offered (plaintext to a TLS agent, no
   * client certificate, a wrong CA or token), the message is one sentence naming the cause and the
   * flag that fixes it ({@link ConnectionRefusals}).
   */
  static AgentCallException of(
      String address, String call, Status status, ChannelSecurity security) {
    return ConnectionRefusals.explain(address, security, status)
        .map(why -> new AgentCallException(status.getCode(), "", why))
        .orElseGet(() -> new AgentCallException(address, call, status));
  }

  private AgentCallException(Status.Code code, String prefix, String detail) {
    super(prefix + detail);
    this.code = code;
    this.detail = detail;
  }

  private static String detail(Status status) {
    return switch (status.getCode()) {
      case UNAVAILABLE ->
          "agent unreachable"
              + (status.getDescription() == null ? "" : " (" + status.getDescription() + ")");
      case DEADLINE_EXCEEDED -> "no answer within the deadline";
      case RESOURCE_EXHAUSTED -> MessageLimit.explain(status.getDescription());
      default ->
          status.getDescription() != null ? status.getDescription() : status.getCode().toString();
    };
  }

  public Status.Code code() {
    return code;
  }

  /** What went wrong, without the "agent ADDRESS: call:" prefix. */
  public String detail() {
    return detail;
  }
}
