package lockstep.coordinator.report;

import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import lockstep.agent.v1.WorkloadSpec;
import lockstep.common.WorkloadKind;
import lockstep.coordinator.model.RunRecord;
import lockstep.coordinator.model.WorkloadJson;
import lockstep.coordinator.scenario.ScenarioException;
import lockstep.coordinator.scenario.ScenarioParser;

/**
 * run.json as schema {@code lockstep.run/v1} wrote it, brought to today's schema before it is read.
 * v1 recorded the workload as an untyped map: from `lockstep run`, the scenario's keys after
 * defaults ({@code type: ping-pong, warmup: 200ms, lock: fcntl}); from `lockstep collect`, the set
 * fields of the agent's message by their proto names ({@code size_bytes: 1048576}). Today's record
 * holds the typed spec. The first is read by the scenario parser's own rules, the second as
 * protobuf's JSON of the kind {@code workloadType} names; an empty map stays an empty spec (a
 * record that knows its type by name only).
 */
final class RunJsonV1 {
  static final String SCHEMA = "lockstep.run/v1";

  private RunJsonV1() {}

  /** {@code run} in today's schema when it is a v1 record; else {@code run} as it is. */
  static JsonNode upgraded(JsonNode run, String source) throws IOException {
    if (!(run instanceof ObjectNode record) || !SCHEMA.equals(record.path("schema").asText())) {
      return run;
    }
    JsonNode workload = record.remove("workload");
    if (workload != null && workload.isObject() && !workload.isEmpty()) {
      record.set(
          "workload", WorkloadJson.tree(spec(workload, record.path("workloadType"), source)));
    }
    record.put("schema", RunRecord.SCHEMA);
    return record;
  }

  private static WorkloadSpec spec(JsonNode workload, JsonNode type, String source)
      throws IOException {
    if (workload.has("type")) {
      try {
        return ScenarioParser.recordedWorkload(workload, source);
      } catch (ScenarioException e) {
        throw new JsonMappingException(null, "workload (schema v1): " + e.getMessage(), e);
      }
    }
    WorkloadKind<?> kind = WorkloadKind.named(type.asText());
    if (kind == null) {
      throw new JsonMappingException(
          null, "workload (schema v1): unknown workload type '" + type.asText() + "'");
    }
    String field =
        WorkloadSpec.getDescriptor().findFieldByNumber(kind.specCase().getNumber()).getName();
    try {
      return WorkloadJson.spec(JsonNodeFactory.instance.objectNode().set(field, workload));
    } catch (IOException e) {
      throw new JsonMappingException(null, "workload (schema v1): " + e.getMessage(), e);
    }
  }
}
