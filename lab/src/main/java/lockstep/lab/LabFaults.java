package lockstep.lab;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import lockstep.coordinator.fault.FaultException;
import lockstep.coordinator.fault.FaultInjector;
import lockstep.coordinator.model.Fault;
import lockstep.coordinator.model.FaultAction;

/**
 * A scenario's faults carried out on the lab's guests from outside them, as the hardware or the
 * hypervisor would: {@code kill} is SIGKILL to the guest's QEMU process (a power loss: no shutdown,
 * no flush, the cluster hears nothing), {@code freeze} is QMP {@code stop} then {@code cont} (the
 * vCPUs paused, its network and disks idle), {@code partition} is its port on the cluster switch
 * down then up (what it sends on the cluster segment is lost and it hears nothing, its own NIC
 * still up: corosync, dlm and o2net lose it; the management link, its agent and its disks stay).
 * {@code restart} is the NFS server's nfsd stopped and, after the fault's time, started again (the
 * guest, its agent and its disk stay up): the clients' locks are reclaimed in nfsd's grace period.
 */
final class LabFaults implements FaultInjector {
  private static final Duration QMP_BOUND = Duration.ofSeconds(10);
  private final Lab lab;
  private final LabPaths paths;

  LabFaults(Lab lab, LabPaths paths) {
    this.lab = lab;
    this.paths = paths;
  }

  @Override
  public String refuses(String node) {
    try {
      LabState s = lab.current();
      s.node(node);
      Long pid = s.pids().get(node);
      if (pid == null || LabProcesses.ours(pid, paths.dir()).isEmpty()) {
        return "the lab's " + node + " is not running (lockstep lab status)";
      }
      return null;
    } catch (LabException e) {
      return e.getMessage();
    }
  }

  @Override
  public void begin(Fault f) {
    LabNode n = node(f);
    switch (f.action()) {
      case KILL -> {
        // in effect once the signal is sent: the guest's vCPUs stop at once, though QEMU may take
        // seconds to free its memory and exit (the recovery waits for that)
        ProcessHandle p = process(n);
        if (!p.destroyForcibly()) {
          throw new FaultException(n.name() + "'s QEMU (pid " + p.pid() + ") could not be killed");
        }
      }
      case FREEZE -> qmp(n, "stop", Map.of());
      case PARTITION -> cut(n, true);
      case RESTART -> service(n, true);
    }
  }

  @Override
  public String end(Fault f) {
    LabNode n = node(f);
    if (f.action() == FaultAction.KILL) {
      return null;
    }
    if (f.action() == FaultAction.RESTART) {
      return service(n, false);
    }
    String writtenOff = lab.writtenOff(n, f.forMillis());
    if (writtenOff != null) {
      // what a fence agent does: the node is powered off before it can come back with the state
      // the cluster has already recovered from (dlm_controld's "stateful merge" then kills
      // corosync on one side, possibly the survivor's)
      ProcessHandle p = process(n);
      if (!p.destroyForcibly()) {
        throw new FaultException(n.name() + "'s QEMU (pid " + p.pid() + ") could not be killed");
      }
      return "fenced (its QEMU killed) instead of "
          + (f.action() == FaultAction.FREEZE ? "continued" : "reconnected")
          + ": "
          + writtenOff;
    }
    if (f.action() == FaultAction.FREEZE) {
      qmp(n, "cont", Map.of());
      return "continued (QMP cont)";
    }
    cut(n, false);
    return "reconnected (its switch port up)";
  }

  @Override
  public String recover(String node) {
    try {
      return lab.recover(node);
    } catch (LabException e) {
      throw new FaultException(e.getMessage());
    }
  }

  private String service(LabNode n, boolean stop) {
    try {
      return lab.nfsd(n, stop);
    } catch (LabException e) {
      throw new FaultException(n.name() + ": " + e.getMessage());
    }
  }

  private void cut(LabNode n, boolean off) {
    try {
      lab.cut(n, off);
    } catch (LabException e) {
      throw new FaultException(n.name() + ": " + e.getMessage());
    }
  }

  private LabNode node(Fault f) {
    try {
      return lab.current().node(f.node());
    } catch (LabException e) {
      throw new FaultException(e.getMessage());
    }
  }

  private ProcessHandle process(LabNode n) {
    Long pid = lab.current().pids().get(n.name());
    Optional<ProcessHandle> p =
        pid == null ? Optional.empty() : LabProcesses.ours(pid, paths.dir());
    return p.orElseThrow(
        () -> new FaultException(n.name() + "'s QEMU is not running (pid " + pid + ")"));
  }

  private void qmp(LabNode n, String command, Map<String, ?> args) {
    try (Qmp q = Qmp.connect(paths.qmp(n), QMP_BOUND)) {
      q.execute(command, args, QMP_BOUND);
    } catch (LabException e) {
      throw new FaultException(n.name() + ": " + e.getMessage());
    }
  }
}
