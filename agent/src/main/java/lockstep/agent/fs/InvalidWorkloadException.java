package lockstep.agent.fs;

/** A workload parameter the agent refuses, named by its scenario field. */
public final class InvalidWorkloadException extends RuntimeException {
    private final String field;

    public InvalidWorkloadException(String field, String problem) {
        super("workload." + field + ": " + problem);
        this.field = field;
    }

    public String field() {
        return field;
    }
}
