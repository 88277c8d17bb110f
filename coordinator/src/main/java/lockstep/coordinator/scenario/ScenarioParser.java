package lockstep.coordinator.scenario;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import lockstep.agent.v1.WorkloadSpec;
import lockstep.common.InvalidWorkloadException;
import lockstep.common.WorkloadKind;
import lockstep.common.WorkloadValidator;
import lockstep.coordinator.expect.Expectation;
import lockstep.coordinator.expect.ExpectationException;
import lockstep.coordinator.expect.ExpectationParser;
import lockstep.coordinator.expect.PlanFigures;
import lockstep.coordinator.model.Fault;

/**
 * Reads scenario YAML into a validated {@link Scenario}; every error names file and field. The
 * workload part maps YAML to the agent's {@link WorkloadSpec} through its {@link WorkloadKind}'s
 * field table ({@link WorkloadYaml}); its rules are the kind's, checked by {@link
 * WorkloadValidator} as the agent checks every Prepare.
 */
public final class ScenarioParser {
  static final int MAX_REPEAT = 100;
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,79}");

  public Scenario parse(Path file) {
    return parse(YamlFiles.read(file, "scenario"), file.toString());
  }

  public Scenario parse(String yaml, String source) {
    JsonNode root = YamlFiles.parse(yaml, "scenario " + source);
    if (root == null || root.isMissingNode()) {
      throw new ScenarioException("scenario " + source + ": is empty");
    }
    YamlMapping top = new YamlMapping(root, "", source);
    String name = top.requiredString("name");
    if (!NAME.matcher(name).matches()) {
      throw top.error(
          "name",
          "'" + Echo.value(name) + "' must be letters, digits, '.', '_' or '-' (at most 80)");
    }
    List<String> agents = top.stringList("agents");
    List<PlanStep> plan = plan(top, top.stringList("plan"));
    Duration timeout = top.duration("timeout", "10m", Duration.ofSeconds(1), Duration.ofHours(24));
    Duration startLead =
        top.duration("start-lead", "500ms", Duration.ofMillis(50), Duration.ofMinutes(5));
    double skewWarn = top.integer("skew-warn-percent", 5, 0, 100) / 100.0;
    int repeat = (int) top.integer("repeat", 1, 1, MAX_REPEAT);
    List<Integer> ramp = PlanFields.ramp(top, plan);
    boolean telemetry = top.bool("telemetry", true);
    JsonNode workloadNode = top.node("workload");
    if (workloadNode == null) {
      throw top.error("workload", "is required");
    }
    YamlMapping w = new YamlMapping(workloadNode, "workload", source);
    WorkloadSpec spec = workload(w);
    WorkloadKind<?> kind = WorkloadKind.of(spec);
    w.rejectUnknown();
    JsonNode expectNode = top.node("expect");
    boolean warmUp = top.bool("warm-up", true);
    List<Fault> faults = FaultFields.read(top, kind.timedMillis(spec), source);
    top.rejectUnknown();
    try {
      WorkloadValidator.validate(spec);
    } catch (InvalidWorkloadException e) {
      throw w.error("workload." + e.field(), e.problem());
    }
    Scenario scenario =
        new Scenario(
            name,
            agents == null ? List.of() : List.copyOf(agents),
            plan,
            spec,
            timeout,
            startLead,
            skewWarn,
            repeat,
            ramp,
            telemetry,
            List.of(),
            warmUp,
            faults);
    scenario = scenario.withExpectations(expectations(top, expectNode, scenario.figures()));
    if (agents != null && !agents.isEmpty()) {
      checkNodeCount(scenario, agents.size(), source);
    }
    return scenario;
  }

  /**
   * A {@code workload:} mapping read into the agent's spec: its type, its kind's fields (defaults
   * where absent) and {@code instrumentation}; not yet validated.
   */
  private static WorkloadSpec workload(YamlMapping w) {
    String type = w.requiredString("type");
    WorkloadKind<?> kind = WorkloadKind.named(type);
    if (kind == null) {
      throw w.error(
          "workload.type",
          "unknown workload type '"
              + Echo.value(type)
              + "' (known: "
              + String.join(", ", WorkloadKind.names())
              + ")");
    }
    WorkloadSpec spec = WorkloadYaml.read(w, kind);
    if (!w.bool("instrumentation", true)) {
      spec = spec.toBuilder().setInstrumentationOff(true).build();
    }
    return spec;
  }

  /**
   * The workload a run.json of schema v1 recorded as the scenario's keys after defaults ({@code
   * type: ping-pong, warmup: 200ms, ...}), read by the same rules as a scenario's, into the spec
   * its agents ran. Keys this version no longer knows are passed over, and the workload's rules are
   * not checked again (the run was held to those of its day).
   */
  public static WorkloadSpec recordedWorkload(JsonNode mapping, String source) {
    return workload(new YamlMapping(mapping, "workload", source));
  }

  /**
   * Checks what depends on how many nodes run together: a ping-pong ring needs at least nodes x
   * processes + 1 slots.
   */
  public static void checkNodeCount(Scenario scenario, int nodes, String source) {
    try {
      scenario.kind().checkNodes(scenario.workload(), nodes);
    } catch (InvalidWorkloadException e) {
      throw new ScenarioException(
          "scenario " + source + ": workload." + e.field() + ": " + e.problem());
    }
  }

  /**
   * The top-level {@code expect:} mapping, {@code FIGURE: "COMPARISON"} (quoted: a YAML value
   * cannot start with '>'), each read by {@link ExpectationParser} against what the plan and the
   * workload produce.
   */
  private static List<Expectation> expectations(YamlMapping top, JsonNode node, PlanFigures plan) {
    if (node == null) {
      return List.of();
    }
    if (!node.isObject()) {
      throw top.error(
          "expect",
          "must be a mapping of figure: \"comparison\", such as {efficiency: \">= 0.8\"}");
    }
    List<Expectation> out = new ArrayList<>();
    var fields = node.fields();
    while (fields.hasNext()) {
      var f = fields.next();
      String field = "expect." + Echo.value(f.getKey());
      JsonNode v = f.getValue();
      if (!v.isTextual()) {
        throw top.error(
            field,
            "'"
                + Echo.value(v.isValueNode() ? v.asText() : v.toString())
                + "' must be a comparison in quotes, such as \">= 0.8\" or \"== 0\"");
      }
      try {
        out.add(ExpectationParser.parse(f.getKey(), v.asText(), plan));
      } catch (ExpectationException e) {
        throw top.error(field, Echo.escaped(e.problem()));
      }
    }
    return List.copyOf(out);
  }

  private static List<PlanStep> plan(YamlMapping top, List<String> names) {
    if (names == null) {
      return List.of(PlanStep.SOLO, PlanStep.ALL);
    }
    if (names.isEmpty()) {
      throw top.error("plan", "is empty (use [solo, all], [solo], [all] or [solo, ramp])");
    }
    List<PlanStep> plan = new ArrayList<>();
    for (String n : names) {
      PlanStep s = PlanStep.fromYaml(n);
      if (s == null) {
        throw top.error("plan", "unknown step '" + Echo.value(n) + "' (known: solo, all, ramp)");
      }
      plan.add(s);
    }
    return List.copyOf(plan);
  }
}
