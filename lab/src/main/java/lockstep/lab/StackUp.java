package lockstep.lab;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Brings a stack up on the lab's clients (its members) and changes its settings; each step one
 * lab-node.sh call, on every member at once where the stack allows.
 */
final class StackUp {
  private static final Duration T = Lab.STEP_TIMEOUT;
  private static final String WAIT = Long.toString(Duration.ofMinutes(2).toSeconds());

  private final LabPaths paths;
  private final Guests guests;
  private final LabLog log;

  /** After a remount under the agents: wait until every stack's answer (AgentDeploy.answerAll). */
  private Consumer<LabState> agentsAnswer = st -> {};

  StackUp whenRemounted(Consumer<LabState> check) {
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
    List<LabNode> members = state.clients();
    log.say("bringing up " + s.word() + " on " + names(members) + " ...");
    switch (s) {
      case GFS2 -> gfs2(state, members);
      case OCFS2 -> ocfs2(state, members);
      case NFS -> nfs(state, members);
    }
    log.say(
        String.format(
            Locale.ROOT,
            "%s mounted on %s at %s (%s up %.0f s)",
            s.word(),
            names(members),
            s.mountPoint(),
            s.word(),
            log.seconds() - t0));
    return state.withStack(s);
  }

  /** The stack's steps on one node that joins a cluster already up (a recovered node). */
  void rejoin(Stack s, LabNode n, LabState state) {
    List<LabNode> members = state.clients();
    switch (s) {
      case GFS2 -> {
        guests.must(n, T, gfs2Config(state, members));
        guests.must(n, T, "gfs2-corosync", WAIT);
        guests.must(n, T, "gfs2-dlm", WAIT);
        guests.must(n, T, "gfs2-mount");
      }
      case OCFS2 -> {
        guests.must(n, T, "ocfs2-o2cb", WAIT, indexes(members));
        guests.must(n, T, ocfs2Mount(state));
      }
      case NFS -> guests.must(n, T, nfsMount(state));
    }
  }

  /** The NFS server's nfsd started again on a recovered server node. */
  void reserve(LabNode n, LabState state) {
    if (state.has(Stack.NFS) && n.equals(state.nfsServer())) {
      log.say(n.name() + ": " + guests.must(n, T, nfsServer(state)).strip());
    }
  }

  /**
   * nfsd on the server, the export mounted on every client at once, then a lock taken on one of
   * them: it waits out the grace period nfsd began with (the first run's locks would otherwise).
   */
  private void nfs(LabState state, List<LabNode> members) {
    LabNode server = state.nfsServer();
    log.say(server.name() + ": " + guests.must(server, T, nfsServer(state)).strip());
    guests.each(members, T, nfsMount(state));
    log.say(
        "NFS mounted on "
            + names(members)
            + " from "
            + server.name()
            + ":"
            + Stack.NFS_EXPORT
            + " ("
            + nfsOptions(state)
            + ")");
    afterGrace(state, members.get(0));
  }

  private void afterGrace(LabState state, LabNode client) {
    String probe =
        guests
            .must(client, T, "nfs-lock-probe", Long.toString(Duration.ofMinutes(2).toSeconds()))
            .strip();
    log.say(client.name() + ": " + probe + " on /mnt/nfs (the server's grace period ends first)");
  }

  private static String[] nfsServer(LabState state) {
    return new String[] {
      "nfs-server",
      state.setting(LabSetting.NFS_GRACE.key()),
      state.setting(LabSetting.NFS_LEASE.key())
    };
  }

  private static String[] nfsMount(LabState state) {
    return new String[] {
      "nfs-mount", Integer.toString(state.nfsServer().index()), nfsOptions(state)
    };
  }

  /**
   * The clients' mount options from the lab's settings: vers, local_lock and lookupcache always (so
   * that the mount says them), nolock and actimeo when set.
   */
  static String nfsOptions(LabState state) {
    List<String> o = new ArrayList<>();
    o.add("vers=" + state.setting(LabSetting.NFS_VERS.key()));
    o.add("local_lock=" + state.setting(LabSetting.NFS_LOCAL_LOCK.key()));
    if ("off".equals(state.setting(LabSetting.NFS_LOCK.key()))) {
      o.add("nolock");
    }
    String ac = state.setting(LabSetting.NFS_ACTIMEO.key());
    if (ac != null && !ac.equals(LabSetting.DEFAULT)) {
      o.add("actimeo=" + ac);
    }
    o.add("lookupcache=" + state.setting(LabSetting.NFS_LOOKUPCACHE.key()));
    return String.join(",", o);
  }

  private void gfs2(LabState state, List<LabNode> members) {
    guests.each(members, T, gfs2Config(state, members));
    guests.each(members, T, "gfs2-corosync", WAIT);
    log.say(
        "corosync quorate on "
            + names(members)
            + " (corosync.service, knet"
            + (members.size() == 2 ? ", two_node" : ", " + members.size() + " votes")
            + ")");
    guests.each(members, T, "gfs2-dlm", WAIT);
    log.say(
        "dlm_controld up on "
            + names(members)
            + " (dlm.service; plock_rate_limit="
            + state.setting(LabSetting.PLOCK_RATE_LIMIT.key())
            + " plock_ownership="
            + state.setting(LabSetting.PLOCK_OWNERSHIP.key())
            + ")");
    mountAll(members, "gfs2", List.of());
  }

  private String[] gfs2Config(LabState state, List<LabNode> members) {
    return new String[] {
      "gfs2-config",
      state.setting(LabSetting.PLOCK_RATE_LIMIT.key()),
      state.setting(LabSetting.PLOCK_OWNERSHIP.key()),
      indexes(members)
    };
  }

  private void ocfs2(LabState state, List<LabNode> members) {
    guests.each(members, T, "ocfs2-o2cb", WAIT, indexes(members));
    log.say(
        "o2cb cluster lockstep online on "
            + names(members)
            + " (o2cb.service, dead threshold "
            + Stack.O2CB_DEAD_THRESHOLD
            + ")");
    mountAll(members, "ocfs2", localalloc(state));
  }

  private static List<String> localalloc(LabState state) {
    String la = state.setting(LabSetting.LOCALALLOC.key());
    return la == null || la.equals("default") ? List.of() : List.of(la);
  }

  private static String[] ocfs2Mount(LabState state) {
    List<String> a = new ArrayList<>(List.of("ocfs2-mount"));
    a.addAll(localalloc(state));
    return a.toArray(String[]::new);
  }

  /**
   * mkfs on the first member (unless the disk has the file system), the mount there alone (the
   * first mounter replays every journal), then on the other members at once, as nodes booting
   * together mount: each claims its own journal or slot under the cluster's locks, and OCFS2's
   * mount mostly waits for its disk heartbeat to settle (10-13 s a node, one after the other
   * before).
   */
  private void mountAll(List<LabNode> members, String fs, List<String> args) {
    guests.must(members.get(0), T, fs + "-mkfs", Integer.toString(members.size()));
    List<String> a = new ArrayList<>(List.of(fs + "-mount"));
    a.addAll(args);
    String[] mount = a.toArray(String[]::new);
    guests.must(members.get(0), T, mount);
    if (members.size() > 1) {
      guests.each(members.subList(1, members.size()), T, mount);
    }
  }

  LabState set(LabSetting.Change c, LabState state) {
    String v = c.word();
    if ((c.setting().remounts() || c.setting().restartsNfsd())
        && v.equals(state.setting(c.setting().key()))) {
      // already so: a remount or nfsd's restart would change nothing
      log.say(c.setting().key() + " is already " + v);
      return state;
    }
    List<LabNode> members = state.clients();
    LabState next = state.withSetting(c.setting().key(), v);
    if (c.setting().mountsNfs()) {
      return setNfsMount(List.of(c), state);
    }
    if (c.setting().restartsNfsd()) {
      LabNode server = state.nfsServer();
      log.say(server.name() + ": " + guests.must(server, T, nfsServer(next)).strip());
      afterGrace(next, members.get(0));
      return next;
    }
    switch (c.setting()) {
      case PLOCK_RATE_LIMIT -> guests.each(members, T, "gfs2-set", c.setting().key(), v);
      case PLOCK_OWNERSHIP -> {
        // not changeable live: dlm_controld restarted while GFS2 is off
        unmounted(
            Stack.GFS2,
            state,
            () -> {
              guests.each(members, T, "gfs2-dlm-stop");
              guests.each(members, T, gfs2Config(next, members));
              guests.each(members, T, "gfs2-dlm", WAIT);
              mountAll(members, "gfs2", List.of());
            });
      }
      case DISK_MBPS -> {
        try (Qmp q = Qmp.connect(paths.storageQmp(), Duration.ofSeconds(5))) {
          for (String e : QemuCommand.exports(state.nodes())) {
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
        // a mount option: OCFS2 remounted with it (without it for the kernel's default)
        unmounted(
            Stack.OCFS2,
            state,
            () -> mountAll(members, "ocfs2", c.value() == null ? List.of() : List.of(v)));
      }
      default -> throw new IllegalStateException(c.setting().key() + " is handled above");
    }
    return next;
  }

  /**
   * NFS's mount options {@code changes} (each {@link LabSetting#mountsNfs}) in one remount on every
   * client, under the running agents; none if the options come out as they are.
   */
  LabState setNfsMount(List<LabSetting.Change> changes, LabState state) {
    LabState next = state;
    for (LabSetting.Change c : changes) {
      next = next.withSetting(c.setting().key(), c.word());
    }
    if (nfsOptions(next).equals(nfsOptions(state))) {
      log.say("NFS is mounted with " + nfsOptions(state) + " already");
      return next;
    }
    List<LabNode> members = state.clients();
    LabState mounted = next;
    unmounted(Stack.NFS, state, () -> guests.each(members, T, nfsMount(mounted)));
    log.say("NFS mounted on " + names(members) + " with " + nfsOptions(next));
    return next;
  }

  /**
   * The stack's file system unmounted on every member (the last one first), {@code whileOff} run,
   * then the new mount handed to the running agents and every stack's asked. The agents are not
   * restarted (a JVM's start under emulation is most of a minute): their sandbox's copies of the
   * mount are let go of first and made again on the new one (lab-node.sh's agent-unpin and
   * agent-repin).
   */
  private void unmounted(Stack s, LabState state, Runnable whileOff) {
    List<LabNode> members = state.clients();
    guests.each(members, T, "agent-unpin", s.mountPoint());
    List<LabNode> lastFirst = new ArrayList<>(members);
    Collections.reverse(lastFirst);
    for (LabNode n : lastFirst) {
      guests.must(n, T, s.word() + "-umount");
    }
    whileOff.run();
    guests.each(members, T, "agent-repin", s.mountPoint());
    agentsAnswer.accept(state);
  }

  /** "1,2,3": the members' indexes, as the guest script takes them. */
  static String indexes(List<LabNode> nodes) {
    return String.join(",", nodes.stream().map(n -> Integer.toString(n.index())).toList());
  }

  static String names(List<LabNode> nodes) {
    return String.join(", ", nodes.stream().map(LabNode::name).toList());
  }
}
