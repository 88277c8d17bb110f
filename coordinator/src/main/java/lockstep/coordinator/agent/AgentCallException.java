package lockstep.coordinator.agent;

import io.grpc.Status;

/** A call to an agent that failed: which agent, which call, and the gRPC status. */
public final class AgentCallException extends RuntimeException {
    private final String address;
    private final String call;
    private final Status.Code code;

    public AgentCallException(String address, String call, Status status) {
        super(describe(address, call, status));
        this.address = address;
        this.call = call;
        this.code = status.getCode();
    }

    private static String describe(String address, String call, Status status) {
        String what = switch (status.getCode()) {
            case UNAVAILABLE -> "agent unreachable" + (status.getDescription() == null ? "" : " (" + status.getDescription() + ")");
            case DEADLINE_EXCEEDED -> "no answer within the deadline";
            default -> status.getDescription() != null ? status.getDescription() : status.getCode().toString();
        };
        return "agent " + address + ": " + call + ": " + what;
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

    /** The message without the "agent ADDRESS: call:" prefix. */
    public String detail() {
        String m = getMessage();
        String prefix = "agent " + address + ": " + call + ": ";
        return m.startsWith(prefix) ? m.substring(prefix.length()) : m;
    }
}
