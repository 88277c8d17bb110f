package lockstep.agent.workload;

import java.util.List;

/** What a cleanup removed and what it could not. */
public record CleanupReport(long filesRemoved, List<String> leftovers) {}
