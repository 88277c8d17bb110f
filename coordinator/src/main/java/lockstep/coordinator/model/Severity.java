package lockstep.coordinator.model;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Arrays;
import java.util.Locale;

/**
 * How much a finding of the verdict weighs, most severe first: INVALID (the run's figures cannot
 * be trusted), WARNING, INFO. Written and read as the lower-case word, as run.json always had it.
 */
public enum Severity {
    INVALID,
    WARNING,
    INFO;

    @JsonValue
    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }

    @JsonCreator
    public static Severity of(String word) {
        return Arrays.stream(values()).filter(s -> s.toString().equals(word)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("severity '" + word + "' is not one of " + Arrays.toString(values())));
    }
}
