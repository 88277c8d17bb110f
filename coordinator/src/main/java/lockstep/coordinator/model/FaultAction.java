package lockstep.coordinator.model;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Arrays;

/**
 * What a scenario's fault does to its node, carried out by the lab (never by the victim's agent):
 * KILL its QEMU process (a power loss), FREEZE the guest for a while (QMP stop, then cont: a long
 * stall or a live migration), PARTITION its cluster network link for a while (QMP set_link: its
 * disk stays). Written as the lower-case word.
 */
public enum FaultAction {
  KILL(false, "was killed"),
  FREEZE(true, "was frozen"),
  PARTITION(true, "was cut off the cluster network");

  private final boolean lasts;
  private final String pastTense;

  FaultAction(boolean lasts, String pastTense) {
    this.lasts = lasts;
    this.pastTense = pastTense;
  }

  /** Whether the fault has a duration ({@code for:}) after which it ends. */
  public boolean lasts() {
    return lasts;
  }

  /** "was killed": what happened to the node, for verdict lines. */
  public String pastTense() {
    return pastTense;
  }

  @JsonValue
  @Override
  public String toString() {
    return EnumWords.word(this);
  }

  @JsonCreator
  public static FaultAction of(String word) {
    return EnumWords.parse(FaultAction.class, "fault action", word);
  }

  /** The action named {@code word}, or null. */
  public static FaultAction named(String word) {
    return Arrays.stream(values()).filter(a -> a.toString().equals(word)).findFirst().orElse(null);
  }
}
