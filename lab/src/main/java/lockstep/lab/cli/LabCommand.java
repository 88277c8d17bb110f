package lockstep.lab.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import lockstep.lab.Lab;
import lockstep.lab.LabConfig;
import lockstep.lab.LabNode;
import lockstep.lab.LabSetting;
import lockstep.lab.LabShape;
import lockstep.lab.Stack;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code lockstep lab up|down|status|set|run|agents|ssh|recover|deploy|image}: a GFS2, OCFS2 and
 * NFS cluster of QEMU guests on this machine ({@link Lab} does the work).
 */
@Command(
    name = "lab",
    description = {
      "A GFS2/OCFS2/NFS cluster of 2 to 4 QEMU guests on this machine, agents deployed.",
      "Ctrl-C: a booting up removes what it made; up on a running lab, set, recover and deploy stop"
          + " the step in flight and leave the lab up; run ends the coordinator (its agents' runs"
          + " aborted); down finishes."
    },
    subcommands = {
      LabCommand.Up.class,
      LabCommand.Deploy.class,
      LabCommand.Down.class,
      LabCommand.Status.class,
      LabCommand.Set.class,
      LabCommand.Run.class,
      LabCommand.Agents.class,
      LabCommand.Ssh.class,
      LabCommand.Recover.class,
      LabCommand.Image.class
    })
public final class LabCommand implements Runnable {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /** Where the lab lives; shared by every subcommand. */
  static final class Where {
    @Option(
        names = "--dir",
        paramLabel = "DIR",
        description =
            "The lab's state, disks, inventories and certificates (default: $LOCKSTEP_LAB_DIR or"
                + " /var/tmp/lockstep-lab).")
    Path dir;

    @Option(
        names = "--cache",
        paramLabel = "DIR",
        description =
            "Where guest images are cached (default: $LOCKSTEP_LAB_CACHE or"
                + " /var/cache/lockstep/lab).")
    Path cache;

    Path dir() {
      return dir != null ? dir : env("LOCKSTEP_LAB_DIR", LabConfig.DEFAULT_DIR);
    }

    Path cache() {
      return cache != null ? cache : env("LOCKSTEP_LAB_CACHE", LabConfig.DEFAULT_CACHE);
    }

    LabConfig config() {
      return LabConfig.of(dir(), cache());
    }

    private static Path env(String name, Path fallback) {
      String v = System.getenv(name);
      return v == null || v.isBlank() ? fallback : Path.of(v);
    }
  }

  /** {@code --stack}: the stack whose agents a subcommand uses; needed only when both are up. */
  static final class StackChoice {
    @Option(names = "--stack", paramLabel = "gfs2|ocfs2", description = "Needed when both are up.")
    String stack;

    Stack on(Lab lab) {
      return lab.stackFor(stack == null ? null : Stack.parse(stack));
    }
  }

  /** A subcommand on the lab that {@link Where} names; {@link #on} gives its exit status. */
  abstract static class OnLab implements Callable<Integer> {
    @CommandLine.Mixin Where where = new Where();

    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
      // the coordinator's errors (lab run, lab agents) where this command's own errors go
      return on(
          new Lab(where.config(), System.out, LinePrintStream.of(spec.commandLine().getErr())));
    }

    abstract int on(Lab lab);
  }

  @Command(
      name = "image",
      description = "Build the guest image (mmdebstrap) unless the cache has it for this recipe.")
  static final class Image extends OnLab {
    @Override
    int on(Lab lab) {
      System.out.println(lab.image().dir());
      return 0;
    }
  }

  @Command(
      name = "up",
      description = {
        "Boot the guests (unless up), bring up each STACK on every client node, deploy its agents"
            + " (Ansible, systemd, mTLS) and print its inventory.",
        "Both stacks may be up at once; settings other than the stacks apply when the lab boots."
      })
  static final class Up implements Callable<Integer> {
    @CommandLine.Mixin Where where = new Where();

    @Parameters(
        arity = "1..3",
        paramLabel = "STACK",
        description =
            "gfs2, ocfs2 and/or nfs (nfs: the last node serves its private disk with nfsd, the"
                + " others mount it).")
    List<String> stacks;

    @Option(
        names = "--accel",
        defaultValue = "auto",
        paramLabel = "auto|kvm|tcg",
        description =
            "auto: KVM where /dev/kvm runs the stock kernel (not PVM), else TCG (default:"
                + " ${DEFAULT-VALUE}).")
    String accel;

    @Option(
        names = "--memory",
        defaultValue = "" + LabConfig.DEFAULT_MEMORY_MIB,
        paramLabel = "MiB",
        description = "Memory per guest (default: ${DEFAULT-VALUE}).")
    int memory;

    @Option(
        names = "--cpus",
        defaultValue = "" + LabConfig.DEFAULT_CPUS,
        paramLabel = "N",
        description = "Virtual CPUs per guest (default: ${DEFAULT-VALUE}).")
    int cpus;

    @Option(
        names = "--nodes",
        paramLabel = "N",
        description =
            "Guests, "
                + LabNode.MIN
                + " to "
                + LabNode.MAX
                + ", on one switch: node1..nodeN (default: "
                + LabConfig.DEFAULT_NODES
                + " clients and the servers).")
    Integer nodes;

    @Option(
        names = "--servers",
        paramLabel = "K",
        description =
            "The last K nodes serve and mount no stack (default: 1 with nfs, which needs a server,"
                + " else 0).")
    Integer servers;

    @Option(
        names = "--disk-mbps",
        defaultValue = "" + LabConfig.DEFAULT_DISK_MBPS,
        paramLabel = "MB/s",
        description =
            "Write budget of the OCFS2 shared disk (both guests together) and of each private disk"
                + " (default: ${DEFAULT-VALUE}; lab set disk-mbps=N changes it live).")
    int diskMbps;

    @Option(
        names = "--localalloc",
        paramLabel = "MB",
        description = "OCFS2's localalloc mount option (default: the kernel's).")
    Integer localalloc;

    @Option(
        names = "--plock-rate-limit",
        defaultValue = "" + LabConfig.DEFAULT_PLOCK_RATE_LIMIT,
        paramLabel = "N",
        description = "dlm_controld's plock_rate_limit, 0 for none (default: ${DEFAULT-VALUE}).")
    int plockRateLimit;

    @Option(
        names = "--plock-ownership",
        defaultValue = "" + LabConfig.DEFAULT_PLOCK_OWNERSHIP,
        paramLabel = "0|1",
        description =
            "dlm_controld's plock_ownership (default: ${DEFAULT-VALUE}, the old gfs_controld's).")
    int plockOwnership;

    @Override
    public Integer call() {
      List<Stack> parsed = new ArrayList<>();
      for (String s : stacks) {
        parsed.add(Stack.parse(s));
      }
      // a lab that is up keeps its shape unless an option says otherwise (then up refuses it)
      LabShape shape =
          LabShape.of(
              nodes,
              servers,
              parsed,
              new Lab(LabConfig.of(where.dir(), where.cache()), System.out).running());
      LabConfig config =
          new LabConfig(
              where.dir(),
              where.cache(),
              accel,
              memory,
              cpus,
              shape.nodes(),
              shape.servers(),
              diskMbps,
              localalloc,
              plockRateLimit,
              plockOwnership);
      new Lab(config, System.out).up(parsed);
      return 0;
    }
  }

  @Command(
      name = "deploy",
      description =
          "Deploy the agents of the stacks that are up again (all of them, or those named), with"
              + " the agent jar as it is now: the Ansible playbook copies it and restarts them.")
  static final class Deploy extends OnLab {
    @Parameters(arity = "0..*", paramLabel = "STACK", description = "gfs2, ocfs2")
    List<String> stacks = new ArrayList<>();

    @Override
    int on(Lab lab) {
      lab.deploy(stacks.stream().map(Stack::parse).toList());
      return 0;
    }
  }

  @Command(
      name = "down",
      description =
          "Stop the guests and the storage daemon, remove the namespace and the lab's disks"
              + " (nothing to do: exit 0).")
  static final class Down extends OnLab {
    @Override
    int on(Lab lab) {
      lab.down();
      return 0;
    }
  }

  @Command(
      name = "status",
      description = "What is up, its settings, and each guest's cluster settings.")
  static final class Status extends OnLab {
    @Override
    int on(Lab lab) {
      lab.status();
      return 0;
    }
  }

  @Command(
      name = "set",
      description = {
        "Change settings on every node: plock_rate_limit=N (live), plock_ownership=0|1"
            + " (dlm_controld restarted, GFS2 remounted), disk-mbps=N (the storage daemon's"
            + " budgets, live), localalloc=MB (OCFS2 remounted with it); NFS's mount options"
            + " nfs_vers=3|4.0|4.1|4.2, nfs_local_lock=none|all|posix|flock, nfs_lock=on|off"
            + " (off: nolock), nfs_actimeo=S|default, nfs_lookupcache=all|pos|none (NFS"
            + " remounted on every client), and the server's nfs_grace=S and nfs_lease=S (nfsd"
            + " restarted)."
      })
  static final class Set extends OnLab {
    @Parameters(arity = "1..*", paramLabel = "KEY=VALUE")
    List<String> settings;

    @Override
    int on(Lab lab) {
      List<LabSetting.Change> changes = new ArrayList<>();
      for (String s : settings) {
        changes.add(LabSetting.parse(s));
      }
      lab.set(changes);
      return 0;
    }
  }

  @Command(
      name = "run",
      description =
          "lockstep run SCENARIO with the lab's inventory, inside the lab's network namespace"
              + " (other options go to lockstep run; on emulated guests --lease 30s unless"
              + " given).")
  static final class Run extends OnLab {
    @CommandLine.Mixin StackChoice stack = new StackChoice();

    @Parameters(index = "0", paramLabel = "SCENARIO")
    String scenario;

    /** Everything after SCENARIO: options of lockstep run. */
    @CommandLine.Unmatched List<String> options = new ArrayList<>();

    @Override
    int on(Lab lab) {
      return lab.run(stack.on(lab), scenario, options);
    }
  }

  @Command(
      name = "agents",
      description = "lockstep agents with the lab's inventory, inside the lab's namespace.")
  static final class Agents extends OnLab {
    @CommandLine.Mixin StackChoice stack = new StackChoice();

    @Override
    int on(Lab lab) {
      return lab.coordinator(stack.on(lab), List.of("agents"));
    }
  }

  @Command(
      name = "ssh",
      description =
          "A root shell (or COMMAND) on a guest (node1, node2, ...); all runs COMMAND on every"
              + " guest at once (each line prefixed with its node), clients on every client.")
  static final class Ssh extends OnLab {
    @Parameters(index = "0", paramLabel = "NODE")
    String node;

    /** The command and its arguments, as given. */
    @CommandLine.Unmatched List<String> command = new ArrayList<>();

    @Override
    int on(Lab lab) {
      return lab.ssh(node, command);
    }
  }

  @Command(
      name = "recover",
      description =
          "Make NODE a whole cluster member again after a fault (what a run with faults does after"
              + " each step): its QEMU killed if it still runs, started again, rejoined, remounted,"
              + " its agents answering.")
  static final class Recover extends OnLab {
    @Parameters(index = "0", paramLabel = "NODE")
    String node;

    @Override
    int on(Lab lab) {
      lab.recover(node); // its log says what was done
      return 0;
    }
  }
}
