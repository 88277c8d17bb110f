package lockstep.coordinator.lab;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.BiConsumer;

/** Brings a stack up on both guests and changes its settings; each step one lab-node.sh call. */
final class StackUp {
  private static final Duration T = Lab.STEP_TIMEOUT;
  private static final String WAIT = Long.toString(Duration.ofMinutes(2).toSeconds());

  private final LabPaths paths;
  private final Guests guests;
  private final LabLog log;

  /** After a stack's agents were restarted: wait until they answer (AgentDeploy.answer). */
  private BiConsumer<Stack, LabState> agentsAnswer = (s, st) -> {};

  StackUp whenAgentsRestart(BiConsumer<Stack, LabState> check) {
    this.agentsAnswer = check;
    return this;
  }

  StackUp(LabPaths paths, Guests guests, LabLog log) {
    this.paths = paths;
    this.guests = guests;
    this.log = log;
  }

  LabState up(Stack s, LabState state) {
    double t0 = log.seconds();
    switch (s) {
      case GFS2 -> gfs2(state);
      case OCFS2 -> ocfs2(state);
    }
    log.say(
        String.format(
            Locale.ROOT,
            "%s mounted on both nodes at %s (%.0f s)",
            s.word(),
            s.mountPoint(),
            log.seconds() - t0));
    return state.withStack(s);
  }

  private void gfs2(LabState state) {
    guests.both(
        T,
        "gfs2-config",
        state.setting(LabSetting.PLOCK_RATE_LIMIT.key()),
        state.setting(LabSetting.PLOCK_OWNERSHIP.key()));
    guests.both(T, "gfs2-corosync", WAIT);
    log.say("corosync quorate on both (corosync.service, knet, two_node)");
    guests.both(T, "gfs2-dlm", WAIT);
    log.say(
        "dlm_controld up on both (dlm.service; plock_rate_limit="
            + state.setting(LabSetting.PLOCK_RATE_LIMIT.key())
            + " plock_ownership="
            + state.setting(LabSetting.PLOCK_OWNERSHIP.key())
            + ")");
    mountBoth("gfs2", List.of());
  }

  private void ocfs2(LabState state) {
    guests.both(T, "ocfs2-o2cb", WAIT);
    log.say("o2cb cluster lockstep online on both (o2cb.service)");
    String la = state.setting(LabSetting.LOCALALLOC.key());
    mountBoth("ocfs2", la == null || la.equals("default") ? List.of() : List.of(la));
  }

  private void mountBoth(String fs, List<String> args) {
    LabNode first = LabNode.all().get(0);
    guests.must(first, T, fs + "-mkfs");
    for (LabNode n : LabNode.all()) {
      String[] a = new String[1 + args.size()];
      a[0] = fs + "-mount";
      for (int i = 0; i < args.size(); i++) {
        a[i + 1] = args.get(i);
      }
      guests.must(n, T, a);
    }
  }

  LabState set(LabSetting.Change c, LabState state) {
    String v = Integer.toString(c.value());
    if (c.setting().remounts() && v.equals(state.setting(c.setting().key()))) {
      // already so: its remount would only stop and start both nodes' agents again
      log.say(c.setting().key() + " is already " + v);
      return state;
    }
    switch (c.setting()) {
      case PLOCK_RATE_LIMIT -> guests.both(T, "gfs2-set", c.setting().key(), v);
      case PLOCK_OWNERSHIP -> {
        // not changeable live: dlm_controld restarted while GFS2 is off
        unmounted(
            Stack.GFS2,
            state,
            () -> {
              guests.both(T, "gfs2-dlm-stop");
              guests.both(T, "gfs2-config", state.setting(LabSetting.PLOCK_RATE_LIMIT.key()), v);
              guests.both(T, "gfs2-dlm", WAIT);
              mountBoth("gfs2", List.of());
            });
      }
      case DISK_MBPS -> {
        try (Qmp q = Qmp.connect(paths.storageQmp(), Duration.ofSeconds(5))) {
          for (String e : QemuCommand.exports()) {
            q.execute(
                "qom-set",
                Map.of(
                    "path",
                    QemuCommand.throttleGroup(e),
                    "property",
                    "limits",
                    "value",
                    Map.of("bps-write", c.value() * 1_000_000L)),
                Duration.ofSeconds(5));
          }
        }
      }
      case LOCALALLOC -> {
        // a mount option: OCFS2 remounted with it
        unmounted(Stack.OCFS2, state, () -> mountBoth("ocfs2", List.of(v)));
      }
    }
    return state.withSetting(c.setting().key(), v);
  }

  /**
   * The stack's agents stopped (their root is on it) and its file system unmounted on both nodes
   * (node2 first), {@code whileOff} run, then the agents started again and answering.
   */
  private void unmounted(Stack s, LabState state, Runnable whileOff) {
    guests.both(T, "agent-stop", s.word());
    for (LabNode n : List.of(LabNode.all().get(1), LabNode.all().get(0))) {
      guests.must(n, T, s.word() + "-umount");
    }
    whileOff.run();
    guests.both(Lab.AGENT_START_TIMEOUT, "agent-start", s.word(), Integer.toString(s.guestPort()));
    agentsAnswer.accept(s, state);
  }
}
