package lockstep.coordinator.results;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The step ids of a run, written and read back here only. A step id is GROUP, or GROUP-rN when the
 * plan repeats; GROUP is solo-NODE, all or ramp-K. On an agent, a step is run RUN.STEP (the run id,
 * a dot, the step id): `lockstep collect` reads the step back from there.
 */
public final class StepIds {
  public static final String SOLO = "solo";
  public static final String RAMP = "ramp";
  public static final String ALL = "all";

  private static final Pattern REPEATED = Pattern.compile("(.+)-r(\\d+)");

  private StepIds() {}

  /** A step id read back: its group, kind (solo, all, ramp) and repeat. */
  public record StepId(String group, String kind, int repeat) {}

  /** The id of repeat {@code repeat} of {@code group} in a plan run {@code repeats} times. */
  public static String of(String group, int repeat, int repeats) {
    return repeats > 1 ? group + "-r" + repeat : group;
  }

  /** What {@link #of} put into a step id. */
  public static StepId parse(String id) {
    Matcher m = REPEATED.matcher(id);
    String group = m.matches() ? m.group(1) : id;
    int repeat = m.matches() ? Integer.parseInt(m.group(2)) : 1;
    String kind = group.startsWith(SOLO + "-") ? SOLO : group.startsWith(RAMP + "-") ? RAMP : group;
    return new StepId(group, kind, repeat);
  }

  /** The run id an agent holds step {@code stepId} of run {@code runId} under. */
  public static String agentRunId(String runId, String stepId) {
    return runId + "." + stepId;
  }

  /** Whether an agent's run id is run {@code runId} itself or one of its steps. */
  public static boolean partOf(String agentRunId, String runId) {
    return agentRunId.equals(runId) || agentRunId.startsWith(runId + ".");
  }

  /** The step id inside an agent's run id of run {@code runId} ("all" for the run itself). */
  public static String stepOf(String agentRunId, String runId) {
    return agentRunId.length() > runId.length() ? agentRunId.substring(runId.length() + 1) : ALL;
  }
}
