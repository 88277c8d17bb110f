package lockstep.coordinator.local;

import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import lockstep.coordinator.analysis.Verdicts;
import lockstep.coordinator.model.Analysis;
import lockstep.coordinator.model.RunRecord;

/**
 * One seed experiment of the demo: its scenario, what one machine can and cannot show of the seed,
 * and the figure of this run that stands for the seed's effect.
 *
 * @param resource the scenario on the classpath
 * @param onOneMachine printed before the run
 * @param effect the seed's effect as this run measured it, printed after the report
 */
record DemoSeed(String resource, String onOneMachine, Function<RunRecord, String> effect) {
  static final List<DemoSeed> ALL =
      List.of(
          new DemoSeed(
              "demo/seed2-concurrent-write.yaml",
              """
              Seed 2 (OCFS2: two nodes that each wrote 180 MB/s alone got 85 MB/s together).
              On one machine the agents share its one disk and page cache, a real shared
              bottleneck like the seed's SAN: the together-vs-alone figure is the seed's
              measurement, but of this machine's disk, not of OCFS2's cluster locking.\
              """,
              DemoSeed::writeEffect),
          new DemoSeed(
              "demo/seed1-plock-rate.yaml",
              """
              Seed 1 (GFS: 10,000 fcntl locks took 20 s at plock_rate_limit=100, 2.2 s with it
              raised). One machine has no cluster lock daemon and no plock_rate_limit: fcntl
              locks here are the kernel's own, so the seed's effect (the limit, about 9x) cannot
              show. The figure below is how fast this machine creates and locks files (O_SYNC
              creates on its local file system), alone and with every agent at once. For the
              seed itself: ./lockstep lab up gfs2 (README, "A cluster on one machine").\
              """,
              DemoSeed::lockEffect));

  private static String writeEffect(RunRecord run) {
    Analysis a = run.analysis();
    if (a == null || a.meanNodeEfficiency() == null) {
      return "Seed 2's effect: not measured (no solo and together figures).";
    }
    return String.format(
        Locale.ROOT,
        "Seed 2's effect, on this machine: each node kept %.2fx of its solo write throughput"
            + " together (the seed: 85.6/180 = 0.48x); together %s MB/s in all against %s MB/s"
            + " for the sum of solos.",
        a.meanNodeEfficiency(),
        Verdicts.num(nullToZero(a.concurrentSumOfNodes())),
        Verdicts.num(nullToZero(a.sumOfSolos())));
  }

  private static String lockEffect(RunRecord run) {
    Analysis a = run.analysis();
    if (a == null || a.sumOfSolos() == null || a.concurrentSumOfNodes() == null) {
      return "Seed 1 on this machine: not measured (no solo and together figures).";
    }
    int nodes = Math.max(1, run.agents().size());
    return String.format(
        Locale.ROOT,
        "Seed 1's workload on this machine: %s locks/s per node alone, %s locks/s per node with"
            + " all %d at once. Not the seed's effect: that needs a cluster lock manager with a"
            + " rate limit.",
        Verdicts.num(a.sumOfSolos() / nodes),
        Verdicts.num(a.concurrentSumOfNodes() / nodes),
        nodes);
  }

  private static double nullToZero(Double d) {
    return d == null ? 0 : d;
  }
}
