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

  /**
   * The agent that was lost (its heartbeats failed): no call is made to it any more, as if it were
   * unreachable.
   */
  public static AgentCallException lost(String address, String call, String reason) {
    return new AgentCallException(
        address, call, Status.UNAVAILABLE.withDescription("agent lost: " + reason));
  }

  /** A call its phase gave up on ({@code why}: "prepare did not finish within 200000 ms"). */
  public static AgentCallException timedOut(String address, String call, String why) {
    return new AgentCallException(
        Status.Code.DEADLINE_EXCEEDED,
        "agent " + address + ": " + call + ": ",
        "no answer within the deadline (" + why + ")");
  }

  /** A call its phase gave up on before the deadline ({@code why}: "prepare was interrupted"). */
  public static AgentCallException cancelled(String address, String call, String why) {
    return new AgentCallException(
        Status.Code.CANCELLED, "agent " + address + ": " + call + ": ", "cancelled: " + why);
  }

  /** The gRPC status code (for the agent package and tests; others ask the questions below). */
  public Status.Code code() {
    return code;
  }

  /** No answer before the deadline of the call's scope (or its phase gave up on it). */
  public boolean timedOut() {
    return code == Status.Code.DEADLINE_EXCEEDED;
  }

  /** The call's scope was cancelled (the agent was lost, the step ended). */
  public boolean cancelled() {
    return code == Status.Code.CANCELLED;
  }

  /** The agent does not know the call (an older version). */
  public boolean unimplemented() {
    return code == Status.Code.UNIMPLEMENTED;
  }

  /** What went wrong, without the "agent ADDRESS: call:" prefix. */
  public String detail() {
    return detail;
  }
}
