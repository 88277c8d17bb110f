package lockstep.coordinator.analysis;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import lockstep.coordinator.model.AgentRecord;
import lockstep.coordinator.model.Fault;
import lockstep.coordinator.model.FaultAction;
import lockstep.coordinator.model.FaultEffect;
import lockstep.coordinator.model.FaultRecord;
import lockstep.coordinator.model.Finding;
import lockstep.coordinator.model.FindingCode;
import lockstep.coordinator.model.NodeResult;
import lockstep.coordinator.model.RunRecord;
import lockstep.coordinator.model.Sample;
import lockstep.coordinator.model.Severity;
import lockstep.coordinator.model.StepRecord;

/**
 * How each survivor of a scenario's fault fared, read from its time series: the longest stretch
 * without a completed operation from the fault on (the stall, as a lock manager's recovery shows
 * it), the time from the end of the stall until its rate was back to 90% of what it was before, and
 * its rate before, during and after; then one finding per survivor in plain words, with the cluster
 * stack's timeouts that bound such a stall.
 */
public final class FaultEffects {
  /**
   * An agent that reported within this long of the fault's end answered throughout: it streams its
   * progress once a second (the coordinator's watch interval), and a report may take part of
   * another to arrive on a loaded node (a cut-off lab guest's last came 1.03 s before the fence).
   */
  static final double REPORTED_WITHIN_SECONDS = 1.5;

  static final double BACK_FRACTION = 0.9;
  static final double RATE_WINDOW_SECONDS = 1.0;

  /** Pauses shorter than this (a few samples) are not called a stall. */
  static final double NO_STALL_SECONDS = 0.5;

  /**
   * A stall that began this long after the fault is worded as a later one: on OCFS2 a survivor that
   * needs nothing the victim holds goes on until o2dlm recovers, once the disk heartbeat has been
   * missing for its dead threshold.
   */
  static final double LATE_STALL_SECONDS = 1.0;

  private FaultEffects() {}

  public static List<FaultEffect> of(RunRecord run) {
    List<FaultEffect> out = new ArrayList<>();
    for (StepRecord s : run.steps()) {
      for (FaultRecord f : s.faults()) {
        if (!f.happened()) {
          continue;
        }
        double at = f.beginSeconds(s.intendedStartUnixNanos());
        for (NodeResult n : s.results()) {
          if (!n.node().equals(f.fault().node()) && n.series().size() >= 2) {
            out.add(effect(s.id(), n.node(), f.fault(), at, n.series(), run.bytesUnit()));
          }
        }
      }
    }
    return List.copyOf(out);
  }

  static FaultEffect effect(
      String step, String node, Fault fault, double at, List<Sample> series, boolean bytes) {
    int m = series.size() - 1;
    double[] t = new double[m + 1];
    double[] w = new double[m + 1];
    for (int i = 0; i <= m; i++) {
      t[i] = series.get(i).t();
      w[i] = bytes ? series.get(i).bytes() / 1e6 : series.get(i).ops();
    }
    // runs of samples with the same count: nothing completed between them
    double bestFrom = at;
    double bestTo = at;
    boolean resumed = true;
    int i = 0;
    while (i < m) {
      if (w[i + 1] != w[i]) {
        i++;
        continue;
      }
      int a = i;
      int c = i + 1;
      while (c < m && w[c + 1] == w[c]) {
        c++;
      }
      // the last op before was in (t[a-1], t[a]], the first after in (t[c], t[c+1]]: midpoints
      double from = a == 0 ? t[0] : (t[a - 1] + t[a]) / 2;
      boolean back = c < m;
      double to = back ? (t[c] + t[c + 1]) / 2 : t[m];
      if (to > at && to - from > bestTo - bestFrom) {
        bestFrom = from;
        bestTo = to;
        resumed = back;
      }
      i = c;
    }
    double before = rate(t, w, t[0], Math.min(at, t[m]));
    double during = bestTo > at ? rate(t, w, at, bestTo) : 0;
    double after = resumed && t[m] > bestTo ? rate(t, w, bestTo, t[m]) : 0;
    Double backIn = null;
    if (resumed && before > 0) {
      for (int j = 0; j <= m; j++) {
        if (t[j] >= bestTo + RATE_WINDOW_SECONDS * 0.5
            && t[j] - RATE_WINDOW_SECONDS >= t[0]
            && rate(t, w, t[j] - RATE_WINDOW_SECONDS, t[j]) >= BACK_FRACTION * before) {
          backIn = Math.max(0, t[j] - bestTo);
          break;
        }
      }
    }
    return new FaultEffect(
        step,
        node,
        fault,
        at,
        Math.max(0, bestTo - bestFrom),
        bestFrom,
        bestTo,
        resumed,
        backIn,
        before,
        during,
        after);
  }

  /** Work done per second between two instants (the counts interpolated between samples). */
  private static double rate(double[] t, double[] w, double from, double to) {
    return to > from ? (at(t, w, to) - at(t, w, from)) / (to - from) : 0;
  }

  private static double at(double[] t, double[] w, double x) {
    if (x <= t[0]) {
      return w[0];
    }
    for (int i = 1; i < t.length; i++) {
      if (x <= t[i]) {
        return w[i - 1] + (w[i] - w[i - 1]) * (x - t[i - 1]) / (t[i] - t[i - 1]);
      }
    }
    return w[t.length - 1];
  }

  /**
   * One finding per survivor (the stall, the recovery and what bounds them), then one per victim of
   * a freeze or partition whose progress the step kept: what it did while the fault lasted.
   */
  static List<Finding> findings(RunRecord run, List<FaultEffect> effects) {
    List<Finding> out = survivors(run, effects);
    for (StepRecord s : run.steps()) {
      for (FaultRecord f : s.faults()) {
        Finding v = victim(run, s, f);
        if (v != null) {
          out.add(v);
        }
      }
    }
    return out;
  }

  /**
   * The victim of a freeze or partition while it lasted, from the progress its agent streamed (a
   * partitioned node's agent still answers through its management network; a frozen one does not):
   * what it completed, how long its work stalled, whether its agent answered, and how the fault
   * ended. Null for a kill, a fault that did not happen, or a victim that streamed nothing.
   */
  static Finding victim(RunRecord run, StepRecord s, FaultRecord f) {
    List<Sample> series = f.victimSeries();
    if (!f.happened() || !f.fault().action().lasts() || series.size() < 2) {
      return null;
    }
    double at = f.beginSeconds(s.intendedStartUnixNanos());
    double planned = at + f.fault().forMillis() / 1000.0;
    double ended =
        f.endedUnixNanos() > 0 ? (f.endedUnixNanos() - s.intendedStartUnixNanos()) / 1e9 : planned;
    double heard = series.get(series.size() - 1).t();
    double until = Math.min(ended, heard);
    if (until <= at) {
      return null;
    }
    FaultEffect e = effect(s.id(), f.fault().node(), f.fault(), at, series, run.bytesUnit());
    double[] t = series.stream().mapToDouble(Sample::t).toArray();
    double[] w =
        series.stream().mapToDouble(x -> run.bytesUnit() ? x.bytes() / 1e6 : x.ops()).toArray();
    double done = at(t, w, until) - at(t, w, at);
    String what = run.bytesUnit() ? "MB written" : run.takesLocks() ? "locks" : "operations";
    StringBuilder b = new StringBuilder();
    b.append(
        String.format(
            Locale.ROOT,
            "%s %s at %.1f s for %.1f s: %s %s while it lasted (%s %s before)",
            f.fault().node(),
            f.fault().action().pastTense(),
            at,
            f.fault().forMillis() / 1000.0,
            Verdicts.num(done),
            what,
            Verdicts.num(e.rateBefore()),
            run.unit()));
    if (e.stallSeconds() >= NO_STALL_SECONDS) {
      b.append(
          String.format(
              Locale.ROOT,
              ", its work stalled %.1f s from %.1f s",
              e.stallSeconds(),
              e.stallFromSeconds()));
    }
    b.append(
        heard >= ended - REPORTED_WITHIN_SECONDS
            ? String.format(
                Locale.ROOT, "; its agent answered throughout (its last report at %.1f s)", heard)
            : String.format(Locale.ROOT, "; its agent was silent from %.1f s", heard));
    if (f.victimLostSeconds() != null) {
      b.append(String.format(Locale.ROOT, " and lost at %.1f s", f.victimLostSeconds()));
    }
    if (f.ending() != null) {
      b.append("; then ").append(f.ending());
    }
    return new Finding(
        FindingCode.FAULT_VICTIM, Severity.WARNING, b.append('.').toString(), s.id());
  }

  /** One finding per survivor: the stall, the recovery and what bounds them. */
  static List<Finding> survivors(RunRecord run, List<FaultEffect> effects) {
    List<Finding> out = new ArrayList<>();
    String what = run.bytesUnit() ? "writes" : "locks";
    for (FaultEffect e : effects) {
      Fault f = e.fault();
      StringBuilder b = new StringBuilder();
      boolean stalled = e.stallSeconds() >= NO_STALL_SECONDS || !e.resumed();
      b.append(opening(e, what, stalled));
      if (!e.resumed()) {
        b.append("; they had not come back when its run ended");
      } else if (e.backTo90Seconds() != null) {
        b.append(
            String.format(
                Locale.ROOT, "; back to 90%% of its rate %.1f s later", e.backTo90Seconds()));
      } else {
        b.append("; its rate did not get back to 90% of what it was before");
      }
      b.append(
          String.format(
              Locale.ROOT,
              " (%s %s before, %s during, %s after)",
              Verdicts.num(e.rateBefore()),
              run.unit(),
              Verdicts.num(e.rateDuring()),
              Verdicts.num(e.rateAfter())));
      String bound = bound(run, e.survivor(), f.action());
      if (!bound.isEmpty()) {
        b.append(". ").append(bound);
      }
      out.add(new Finding(FindingCode.FAULT_STALL, Severity.WARNING, b.toString(), e.step()));
    }
    return out;
  }

  /** What happened to the survivor's work after the fault: a stall at it, a later one, or none. */
  private static String opening(FaultEffect e, String what, boolean stalled) {
    Fault f = e.fault();
    String fault =
        f.node()
            + " "
            + f.action().pastTense()
            + (f.action().lasts()
                ? String.format(Locale.ROOT, " for %.1f s", f.forMillis() / 1000.0)
                : "");
    String at = String.format(Locale.ROOT, "at %.1f s", e.faultAtSeconds());
    double delay = e.stallFromSeconds() - e.faultAtSeconds();
    if (!stalled) {
      return String.format(
          Locale.ROOT,
          "%s's %s went on without a stall after %s (%s; longest pause %.1f s)",
          e.survivor(),
          what,
          fault,
          at,
          e.stallSeconds());
    }
    if (delay >= LATE_STALL_SECONDS) {
      return String.format(
          Locale.ROOT,
          "%s's %s went on after %s (%s), then stalled %.1f s from %.1f s (%.1f s after the fault)",
          e.survivor(),
          what,
          fault,
          at,
          e.stallSeconds(),
          e.stallFromSeconds(),
          delay);
    }
    return String.format(
        Locale.ROOT,
        "%s's %s stalled %.1f s after %s (%s)",
        e.survivor(),
        what,
        e.stallSeconds(),
        fault,
        at);
  }

  /**
   * What bounds how long a lost NFS client holds its locks, as the survivor's mount tells: on v4
   * the server's lease (the client learns it: {@code nfs:lease_time}), after which the server drops
   * a silent client's locks when another client asks for them; on v3 nothing but the client's
   * return (its statd notifies the server's, which then drops its locks).
   */
  private static String nfsBound(
      Map<String, String> env, FaultAction action, Map<String, String> server) {
    String vers = env.getOrDefault("nfs:vers", "");
    if (action == FaultAction.RESTART) {
      return nfsGrace(vers, server);
    }
    String lead = action == FaultAction.FREEZE ? "A frozen client is silent, so " : "";
    if (vers.startsWith("4")) {
      String lease = env.get("nfs:lease_time");
      return lead
          + (lead.isEmpty() ? "The" : "the")
          + " NFS server drops a silent v4 client's locks once its lease has run out"
          + (lease == null ? "" : " (lease time " + lease + " s, nfsd's nfsv4leasetime)")
          + " and another client asks for them";
    }
    if (vers.startsWith("3") || vers.startsWith("2")) {
      return lead
          + (lead.isEmpty() ? "On" : "on")
          + " NFSv3 the server's lockd keeps a lost client's locks until that client comes back"
          + " and its rpc.statd notifies the server (SM_NOTIFY): no timeout frees them";
    }
    return "";
  }

  /**
   * What bounds a survivor's stall when its NFS server restarts: the grace period nfsd (v4) or
   * lockd (v3) begins with, in which only reclaims are granted, as the server's watch-only agent
   * read it ({@code server}: its settings; empty without one).
   */
  private static String nfsGrace(String vers, Map<String, String> server) {
    boolean v3 = vers.startsWith("3") || vers.startsWith("2");
    // in effect (/proc/fs/nfsd, an agent as root), else as nfs.conf sets it
    String lease = server.getOrDefault("nfsd:lease_time", server.get("nfs.conf:nfsd.lease-time"));
    String v4grace = server.getOrDefault("nfsd:grace_time", server.get("nfs.conf:nfsd.grace-time"));
    String grace = v3 ? nonZero(server.get("lockd:nlm_grace_period"), lease) : v4grace;
    String setting =
        v3
            ? "lockd's nlm_grace_period"
            : server.containsKey("nfsd:grace_time")
                ? "nfsd's nfsv4gracetime"
                : "nfs.conf's grace-time";
    return "A restarted NFS server begins a grace period in which its clients reclaim the locks"
        + " they held and no new lock is granted"
        + (grace == null ? " (" + setting + ")" : " (grace time " + grace + " s, " + setting + ")")
        + ": a lock asked for meanwhile waits for its end, and for the client's next try";
  }

  private static String nonZero(String v, String otherwise) {
    return v == null || v.equals("0") ? otherwise : v;
  }

  /** The survivor's cluster timeouts that bound how long a lost peer holds its locks. */
  static String bound(RunRecord run, String node, FaultAction action) {
    AgentRecord agent =
        run.agents().stream().filter(a -> a.node().equals(node)).findFirst().orElse(null);
    if (agent == null) {
      return "";
    }
    Map<String, String> env = agent.clusterSettings();
    if ("nfs4".equals(agent.fsType()) || "nfs".equals(agent.fsType())) {
      Map<String, String> server =
          run.watchers().stream()
              .map(AgentRecord::clusterSettings)
              .filter(w -> w.containsKey("nfsd:threads"))
              .findFirst()
              .orElse(Map.of());
      return nfsBound(env, action, server);
    }
    // a node may run both stacks (the lab does): the file system measured says whose timeouts
    boolean o2cb = "ocfs2".equals(agent.fsType());
    boolean corosync = !o2cb;
    List<String> parts = new ArrayList<>();
    String token = corosync ? env.get("corosync:totem.token") : null;
    String consensus = env.get("corosync:totem.consensus");
    if (token != null) {
      parts.add(
          "corosync declares a silent node lost after its token timeout "
              + token
              + " ms"
              + (consensus == null ? "" : " plus consensus " + consensus + " ms")
              + ", then dlm recovers its locks"
              + (env.containsKey("dlm_controld:enable_fencing")
                  ? " (enable_fencing=" + env.get("dlm_controld:enable_fencing") + ")"
                  : ""));
    }
    String dead = o2cb ? env.get("o2cb:heartbeat_dead_threshold") : null;
    String idle = o2cb ? env.get("o2cb:idle_timeout_ms") : null;
    if (dead != null || idle != null) {
      StringBuilder o = new StringBuilder("o2cb declares a node dead");
      if (dead != null) {
        try {
          int n = Integer.parseInt(dead.trim());
          o.append(" when its disk heartbeat has been missing for ")
              .append((n - 1) * 2)
              .append(" s (dead threshold ")
              .append(n)
              .append(" x 2 s)");
        } catch (NumberFormatException ex) {
          o.append(" after its disk heartbeat dead threshold ").append(dead);
        }
      }
      if (idle != null) {
        o.append(dead != null ? " or" : "")
            .append(" when o2net is idle for ")
            .append(idle)
            .append(" ms");
      }
      parts.add(o.append(", then o2dlm recovers its locks").toString());
    }
    if (parts.isEmpty()) {
      return "";
    }
    String lead = action == FaultAction.FREEZE ? "A frozen node is silent, so " : "";
    return lead + String.join("; ", parts);
  }
}
