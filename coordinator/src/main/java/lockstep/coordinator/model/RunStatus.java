package lockstep.coordinator.model;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Arrays;
import java.util.Locale;

/**
 * The status of a run, of a step, or of a node's part in a step: run.json's {@code status} fields. A run is
 * ok, failed or interrupted; a step ok or failed; a node ok, failed, aborted or incomplete.
 * Written and read as the lower-case word ({@code "ok"}), as run.json always had it.
 */
public enum RunStatus {
    OK,
    FAILED,
    ABORTED,
    INCOMPLETE,
    INTERRUPTED;

    /** The word in run.json, the CSV files and the reports. */
    @JsonValue
    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }

    @JsonCreator
    public static RunStatus of(String word) {
        return Arrays.stream(values()).filter(o -> o.toString().equals(word)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("status '" + word + "' is not one of " + Arrays.toString(values())));
    }
}
