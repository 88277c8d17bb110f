package lockstep.agent.fs;

/** A failed system call: which call, on which path, and errno with its name. */
public final class PosixException extends RuntimeException {
    private final String operation;
    private final String path;
    private final int errno;
    private final String errnoName;

    public PosixException(String operation, String path, int errno, String errnoName, String description) {
        super(operation + " " + path + ": " + errnoName + (description.isEmpty() ? "" : " (" + description + ")"));
        this.operation = operation;
        this.path = path;
        this.errno = errno;
        this.errnoName = errnoName;
    }

    public String operation() {
        return operation;
    }

    public String path() {
        return path;
    }

    public int errno() {
        return errno;
    }

    public String errnoName() {
        return errnoName;
    }
}
