package lockstep.lab;

import java.util.ArrayList;
import java.util.List;

/** The command lines of the lab's QEMU processes: one guest each, and the storage daemon. */
final class QemuCommand {
  private QemuCommand() {}

  /** The process name of a lab QEMU (QEMU's -name process=, what pgrep and ps show). */
  static String processName(LabNode n) {
    return "lockstep-" + n.name();
  }

  /**
   * With more than one vCPU under TCG the kernel's boot check finds the vCPUs' TSCs
   * "unsynchronized" (they are all the host's TSC, read by different threads at emulated speed) and
   * falls back to the HPET, whose every read is a system call and an emulated device access: clock
   * reads would cost the guest's programs (Lockstep's two per operation) many times what they cost
   * on a real node. {@code tsc=reliable} keeps the TSC.
   */
  static String kernelCommandLine(LabNode n, int cpus) {
    return (cpus > 1 ? "tsc=reliable " : "")
        + "root=LABEL="
        + GuestImage.ROOT_LABEL
        + " rw console=ttyS0 loglevel=4 systemd.hostname="
        + n.name()
        + " ip="
        + n.clusterAddress()
        + ":::255.255.255.0::clu0:off"
        + " systemd.machine_id="
        + String.format("%032x", n.index());
  }

  /**
   * One guest: its own qcow2 overlay on the image, GFS2's raw shared file, OCFS2's shared disk and
   * its private disk from the storage daemon (NBD on a unix socket), the management NIC (slirp, ssh
   * and the agents' ports forwarded from 127.0.0.1 of the namespace) and the cluster NIC (its tap
   * on the namespace's cluster switch), QMP on a unix socket.
   */
  static List<String> guest(
      LabNode n, GuestImage image, LabPaths paths, Accelerator accel, int memoryMib, int cpus) {
    List<String> c = new ArrayList<>();
    c.add("qemu-system-x86_64");
    c.addAll(List.of("-name", n.name() + ",process=" + processName(n)));
    c.addAll(List.of("-machine", "q35"));
    c.addAll(accel.qemuArgs());
    c.addAll(List.of("-m", Integer.toString(memoryMib), "-smp", Integer.toString(cpus)));
    c.addAll(List.of("-kernel", image.kernel().toString(), "-initrd", image.initrd().toString()));
    c.addAll(List.of("-append", kernelCommandLine(n, cpus)));
    c.addAll(
        List.of(
            "-drive",
            "file=" + paths.overlay(n) + ",if=none,id=root,format=qcow2",
            "-device",
            "virtio-blk-pci,drive=root,serial=root"));
    c.addAll(
        List.of(
            "-drive",
            "file=" + paths.disk(Stack.GFS2.word()) + ",if=none,id=gfs2,format=raw,cache=none",
            "-device",
            "virtio-blk-pci,drive=gfs2,serial=gfs2,share-rw=on"));
    c.addAll(
        List.of(
            "-drive",
            nbd(paths, "ocfs2") + ",if=none,id=ocfs2",
            "-device",
            "virtio-blk-pci,drive=ocfs2,serial=ocfs2,share-rw=on"));
    c.addAll(
        List.of(
            "-drive",
            nbd(paths, n.privateExport()) + ",if=none,id=priv",
            "-device",
            "virtio-blk-pci,drive=priv,serial=priv"));
    c.addAll(
        List.of(
            "-netdev",
            mgmtNetdev(n),
            "-device",
            "virtio-net-pci,netdev=mgmt,id=mgmt-nic,mac=" + n.mgmtMac()));
    c.addAll(
        List.of(
            "-netdev",
            "tap,id=clu,ifname=" + n.tap() + ",script=no,downscript=no",
            "-device",
            "virtio-net-pci,netdev=clu,id=clu-nic,mac=" + n.clusterMac()));
    c.addAll(List.of("-display", "none", "-monitor", "none"));
    c.addAll(List.of("-serial", "file:" + paths.console(n)));
    c.addAll(List.of("-qmp", "unix:" + paths.qmp(n) + ",server=on,wait=off"));
    c.addAll(List.of("-daemonize", "-pidfile", paths.pidFile(n).toString()));
    return c;
  }

  /**
   * slirp with the forwards from 127.0.0.1 of the namespace: ssh, and the agent's port over both
   * TCP (gRPC) and UDP (the clock probe answers on the same port number). Not restrict=on:
   * libslirp's restricted mode drops every UDP datagram a guest sends but DHCP, DNS and TFTP, the
   * answers to a forwarded UDP port among them, so clock probes could not cross the forward. The
   * guest reaches no further than before: the namespace around QEMU has only its loopback (no route
   * anywhere else), and the guests have no default route.
   */
  static String mgmtNetdev(LabNode n) {
    StringBuilder b = new StringBuilder("user,id=mgmt,restrict=off");
    b.append(",hostfwd=tcp:127.0.0.1:").append(n.sshPort()).append("-:22");
    for (String proto : List.of("tcp", "udp")) {
      b.append(",hostfwd=")
          .append(proto)
          .append(":127.0.0.1:")
          .append(n.agentPort())
          .append("-:")
          .append(LabAgent.GUEST_PORT);
    }
    return b.toString();
  }

  private static String nbd(LabPaths paths, String export) {
    return "driver=nbd,server.type=unix,server.path=" + paths.nbdSocket() + ",export=" + export;
  }

  /** The throttle group of an export of the storage daemon. */
  static String throttleGroup(String export) {
    return "tg-" + export;
  }

  /** The storage daemon's exports: OCFS2's shared disk and every node's private disk. */
  static List<String> exports(List<LabNode> nodes) {
    List<String> e = new ArrayList<>(List.of(Stack.OCFS2.word()));
    nodes.forEach(n -> e.add(n.privateExport()));
    return e;
  }

  /**
   * One qemu-storage-daemon serving OCFS2's shared disk (one throttle group: a write budget both
   * guests share, like a SAN's) and each private disk (a throttle group of its own, the same
   * budget) over NBD on a unix socket; QMP on another, to change the budget live.
   */
  static List<String> storageDaemon(LabPaths paths, List<LabNode> nodes, long bytesPerSecond) {
    List<String> c = new ArrayList<>(List.of("qemu-storage-daemon"));
    for (String e : exports(nodes)) {
      String file = paths.disk(e).toString();
      c.addAll(
          List.of(
              "--blockdev",
              "driver=file,filename=" + file + ",node-name=" + e + "-file,cache.direct=on",
              "--object",
              "throttle-group,id=" + throttleGroup(e) + ",x-bps-write=" + bytesPerSecond,
              "--blockdev",
              "driver=throttle,node-name="
                  + e
                  + ",file="
                  + e
                  + "-file,throttle-group="
                  + throttleGroup(e)));
    }
    c.addAll(
        List.of(
            "--nbd-server",
            "addr.type=unix,addr.path="
                + paths.nbdSocket()
                + ",max-connections="
                + 4 * LabNode.MAX));
    for (String e : exports(nodes)) {
      c.addAll(
          List.of(
              "--export",
              "type=nbd,id=export-" + e + ",node-name=" + e + ",name=" + e + ",writable=on"));
    }
    c.addAll(
        List.of(
            "--chardev",
            "socket,id=qmp,path=" + paths.storageQmp() + ",server=on,wait=off",
            "--monitor",
            "chardev=qmp",
            "--daemonize",
            "--pidfile",
            paths.storagePidFile().toString()));
    return c;
  }
}
