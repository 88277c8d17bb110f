package lockstep.coordinator.collect;

import com.google.protobuf.Descriptors.EnumValueDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import lockstep.agent.v1.WorkloadSpec;

/**
 * A workload as the agent holds it, for run.json's {@code workload} when no scenario file is at
 * hand (`lockstep collect`): the set fields of its message by their proto names, enums by name.
 */
final class WorkloadParams {
  private WorkloadParams() {}

  static Map<String, Object> of(WorkloadSpec spec) {
    Map<String, Object> out = new LinkedHashMap<>();
    for (Map.Entry<FieldDescriptor, Object> kind : spec.getAllFields().entrySet()) {
      if (kind.getValue() instanceof Message m) {
        for (Map.Entry<FieldDescriptor, Object> f : m.getAllFields().entrySet()) {
          out.put(f.getKey().getName(), plain(f.getValue()));
        }
      }
    }
    return out;
  }

  private static Object plain(Object value) {
    if (value instanceof EnumValueDescriptor e) {
      return e.getName();
    }
    if (value instanceof List<?> list) {
      return list.stream().map(WorkloadParams::plain).toList();
    }
    return value;
  }
}
