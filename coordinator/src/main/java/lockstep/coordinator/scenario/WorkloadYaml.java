package lockstep.coordinator.scenario;

import com.google.protobuf.Descriptors.EnumDescriptor;
import com.google.protobuf.Descriptors.EnumValueDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import lockstep.agent.v1.WorkloadSpec;
import lockstep.common.WorkloadField;
import lockstep.common.WorkloadKind;

/**
 * A scenario's {@code workload:} mapping read into the agent's {@link WorkloadSpec} through its
 * kind's field table ({@link WorkloadKind#fields}): each field's text is read by its type and set
 * on the proto field it names. Limits here are only the proto field's own (a uint32 holds up to
 * 2^32-1); the workload's rules are {@code WorkloadValidator}'s.
 */
final class WorkloadYaml {
  private static final long UINT32_MAX = 0xFFFF_FFFFL;

  private WorkloadYaml() {}

  static WorkloadSpec read(YamlMapping w, WorkloadKind<?> kind) {
    Message.Builder b = kind.newMessageBuilder();
    for (WorkloadField f : kind.fields()) {
      FieldDescriptor fd = b.getDescriptorForType().findFieldByName(f.protoName());
      if (fd == null) {
        throw new IllegalStateException(kind + ": no proto field " + f.protoName());
      }
      set(w, b, fd, f);
    }
    return kind.spec(b.build());
  }

  private static void set(YamlMapping w, Message.Builder b, FieldDescriptor fd, WorkloadField f) {
    String name = f.yamlName();
    boolean uint32 = fd.getType() == FieldDescriptor.Type.UINT32;
    switch (f.type()) {
      case PATH -> b.setField(fd, w.relativePath(name, f.defaultText()));
      case SIZE -> {
        long bytes = w.size(name, f.defaultText(), 0, uint32 ? UINT32_MAX : Long.MAX_VALUE);
        b.setField(fd, uint32 ? (Object) (int) bytes : (Object) bytes);
      }
      case COUNT -> {
        long n =
            w.integer(
                name, Long.parseLong(f.defaultText()), 0, uint32 ? UINT32_MAX : Long.MAX_VALUE);
        b.setField(fd, uint32 ? (Object) (int) n : (Object) n);
      }
      case FLAG -> b.setField(fd, w.bool(name, Boolean.parseBoolean(f.defaultText())));
      case DURATION_MILLIS -> b.setField(fd, duration(w, name, f.defaultText()).toMillis());
      case DURATION_MICROS -> b.setField(fd, duration(w, name, f.defaultText()).toNanos() / 1000);
      case WORDS -> b.setField(fd, word(w, f, fd.getEnumType(), w.string(name, f.defaultText())));
      case CHOICE -> {
        String text = w.string(name, f.defaultText());
        int i = f.choices().indexOf(text);
        if (i < 0) {
          throw unknown(w, f, text, f.choices());
        }
        b.setField(fd, i == 1);
      }
      case WORD_LIST -> {
        List<String> names = w.stringList(name);
        if (names == null) {
          names = WorkloadField.wordsOf(fd.getEnumType());
        }
        w.used().put(name, names);
        List<EnumValueDescriptor> values = new ArrayList<>();
        for (String n : names) {
          values.add(word(w, f, fd.getEnumType(), n));
        }
        // the agent runs them in the enum's order whatever the YAML's order
        values.sort(Comparator.comparingInt(EnumValueDescriptor::getNumber));
        values.forEach(v -> b.addRepeatedField(fd, v));
      }
    }
  }

  /** A workload duration; its limits are the validator's. */
  private static Duration duration(YamlMapping w, String name, String defaultText) {
    return w.duration(name, defaultText, Duration.ZERO, Durations.LARGEST);
  }

  private static EnumValueDescriptor word(
      YamlMapping w, WorkloadField f, EnumDescriptor type, String text) {
    EnumValueDescriptor v = WorkloadField.valueOf(type, text);
    if (v == null) {
      throw unknown(w, f, text, WorkloadField.wordsOf(type));
    }
    return v;
  }

  private static ScenarioException unknown(
      YamlMapping w, WorkloadField f, String text, List<String> known) {
    return w.error(
        "workload." + f.yamlName(),
        "unknown "
            + f.noun()
            + " '"
            + Echo.value(text)
            + "' (known: "
            + String.join(", ", known)
            + ")");
  }
}
