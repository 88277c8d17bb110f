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

  private AgentCallException(String address, String call, Status.Code code, String detail) {
    super("agent " + address + ": " + call + ": " + detail);
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
