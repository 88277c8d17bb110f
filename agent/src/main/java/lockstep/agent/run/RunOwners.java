package lockstep.agent.run;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import lockstep.agent.security.CallerIdentity;

/**
 * Who prepared each run. Only that identity may prepare it again, start, watch, collect, abort or
 * clean it; anyone else gets PERMISSION_DENIED naming the reason. (Identities: see {@link
 * CallerIdentity}.)
 */
public final class RunOwners {
  private final Map<String, String> owners = new ConcurrentHashMap<>();
  private final String node;

  public RunOwners(String node) {
    this.node = node;
  }

  /**
   * Before a Prepare: the run id is free (it becomes the caller's), or already the caller's (a
   * repeated prepare).
   */
  public void claim(String runId) {
    owners.putIfAbsent(runId, CallerIdentity.current());
    check(runId, "prepare");
  }

  /** Before any other call about a run: refused unless the caller prepared it. */
  public void check(String runId, String call) {
    String owner = owners.get(runId);
    String caller = CallerIdentity.current();
    if (owner != null && !owner.equals(caller)) {
      throw new RunException.NotOwner(
          call
              + " of run "
              + runId
              + " on node "
              + node
              + " refused: the run belongs to "
              + CallerIdentity.shown(owner)
              + ", who prepared it; this call comes from "
              + CallerIdentity.shown(caller));
    }
  }

  /** The identity that prepared the run, or "" when none is known. */
  public String ownerOf(String runId) {
    return owners.getOrDefault(runId, "");
  }

  public void forget(String runId) {
    owners.remove(runId);
  }
}
