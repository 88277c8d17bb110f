package lockstep.coordinator.agent;

import io.grpc.Status;

/** A call to an agent that failed: which agent, which call, and the gRPC status. */
public final class AgentCallException extends RuntimeException {
  private final String address;
  private final String call;
  private final Status.Code code;
  private final String detail;

  public AgentCallException(String address, String call, Status status) {
    this(address, call, status.getCode(), detail(status));
  }

  /**
   * As above; when the agent refused what {@code security} offered (plaintext to a TLS agent, no
   * client certificate, a wrong CA or token), the message is one sentence naming the cause and the
   * flag that fixes it ({@link ConnectionRefusals}).
   */
  static AgentCallException of(
      String address, String call, Status status, ChannelSecurity security) {
    return ConnectionRefusals.explain(address, security, status)
        .map(why -> new AgentCallException(address, call, status.getCode(), why, why))
        .orElseGet(() -> new AgentCallException(address, call, status));
  }

  private AgentCallException(String address, String call, Status.Code code, String detail) {
    this(address, call, code, detail, "agent " + address + ": " + call + ": " + detail);
  }

  private AgentCallException(
      String address, String call, Status.Code code, String detail, String message) {
    super(message);
    this.address = address;
    this.call = call;
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

  public String address() {
    return address;
  }

  public String call() {
    return call;
  }

  public Status.Code code() {
    return code;
  }

  /** What went wrong, without the "agent ADDRESS: call:" prefix. */
  public String detail() {
    return detail;
  }
}
