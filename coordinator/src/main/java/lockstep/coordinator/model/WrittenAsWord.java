package lockstep.coordinator.model;

import com.fasterxml.jackson.annotation.JacksonAnnotationsInside;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import com.fasterxml.jackson.databind.ser.std.ToStringSerializer;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * An enum written to run.json as its word ({@link EnumWords#word}, which its {@code toString}
 * returns) and read back from it by every ObjectMapper, with an unknown word refused by an error
 * naming the field ({@link #value}: "severity").
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@JacksonAnnotationsInside
@JsonSerialize(using = ToStringSerializer.class)
@JsonDeserialize(using = EnumWords.Deserializer.class)
@interface WrittenAsWord {
  /** The field as an unknown word's error names it. */
  String value();
}
