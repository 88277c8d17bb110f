package lockstep.coordinator.model;

import java.util.Arrays;

/**
 * What a scenario's fault does to its node, carried out by the lab (never by the victim's agent):
 * KILL its QEMU process (a power loss), FREEZE the guest for a while (QMP stop, then cont: a long
 * stall or a live migration), PARTITION its cluster network link for a while (QMP set_link: its
 * disk stays), RESTART the file service it serves for a while (an NFS server's nfsd stopped, then
 * started again: its grace period begins; the node and its agent stay up). Written as the
 * lower-case word.
 */
@WrittenAsWord("fault action")
public enum FaultAction {
  KILL,
  FREEZE,
  PARTITION,
  RESTART;

  /** Whether the fault has a duration ({@code for:}) after which it ends. */
  public boolean lasts() {
    return this != KILL;
  }

  /** "was killed": what happened to the node, for verdict lines. */
  public String pastTense() {
    return switch (this) {
      case KILL -> "was killed";
      case FREEZE -> "was frozen";
      case PARTITION -> "was cut off the cluster network";
      case RESTART -> "restarted its file service";
    };
  }

  @Override
  public String toString() {
    return EnumWords.word(this);
  }

  /** The action named {@code word}, or null. */
  public static FaultAction named(String word) {
    return Arrays.stream(values()).filter(a -> a.toString().equals(word)).findFirst().orElse(null);
  }
}
