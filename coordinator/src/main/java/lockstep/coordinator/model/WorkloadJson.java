package lockstep.coordinator.model;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.util.JsonFormat;
import java.io.IOException;
import lockstep.agent.v1.WorkloadSpec;

/**
 * The workload in run.json: the agent's {@link WorkloadSpec} as protobuf's JSON ({@link
 * JsonFormat}: one member named after the kind, {@code "pingPong"}, holding every field of its
 * message by its JSON name, enums by their proto names, 64-bit numbers as strings), so the record
 * holds exactly what the agents ran.
 */
public final class WorkloadJson {
  private static final JsonFormat.Printer PRINTER =
      JsonFormat.printer().includingDefaultValueFields();
  private static final JsonFormat.Parser PARSER = JsonFormat.parser();
  private static final ObjectMapper TREES = new ObjectMapper();

  private WorkloadJson() {}

  /** The spec as run.json writes it. */
  public static JsonNode tree(WorkloadSpec spec) throws IOException {
    return TREES.readTree(PRINTER.print(spec));
  }

  /**
   * The spec that protobuf's JSON {@code tree} holds (fields by their JSON or proto names, enums by
   * name or number); a member the spec does not have is an error naming it.
   */
  public static WorkloadSpec spec(JsonNode tree) throws InvalidProtocolBufferException {
    WorkloadSpec.Builder spec = WorkloadSpec.newBuilder();
    try {
      PARSER.merge(TREES.writeValueAsString(tree), spec);
    } catch (IOException e) {
      throw e instanceof InvalidProtocolBufferException p
          ? p
          : new InvalidProtocolBufferException(e.getMessage());
    }
    return spec.build();
  }

  static final class Writer extends JsonSerializer<WorkloadSpec> {
    @Override
    public void serialize(WorkloadSpec spec, JsonGenerator gen, SerializerProvider provider)
        throws IOException {
      provider.defaultSerializeValue(tree(spec), gen);
    }
  }

  static final class Reader extends JsonDeserializer<WorkloadSpec> {
    @Override
    public WorkloadSpec deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
      JsonNode tree = ctxt.readTree(p);
      try {
        return spec(tree);
      } catch (InvalidProtocolBufferException e) {
        throw JsonMappingException.from(p, "workload: " + e.getMessage(), e);
      }
    }
  }
}
