package lockstep.agent.env;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import lockstep.agent.fs.MountInfo;
import lockstep.testsupport.TestFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NodeEnvironmentTest {
  @TempDir Path base;

  private void write(String rel, String text) throws IOException {
    TestFiles.write(base, rel, text);
  }

  @Test
  void readsKernelCpuMemoryDeviceAndClusterSettingsFromTheirFiles() throws IOException {
    write("proc/sys/kernel/osrelease", "5.14.0-lockstep\n");
    write("proc/cpuinfo", "processor\t: 0\nmodel name\t: Test   CPU @ 2.0GHz\n");
    write("proc/meminfo", "MemTotal:       16384 kB\nMemFree: 1 kB\n");
    write(
        "proc/self/mountinfo",
        "41 22 8:17 / /mnt/ocfs2 rw,relatime - ocfs2 /dev/sdb1 rw,localalloc=16,data=writeback\n");
    write("sys/dev/block/8:17/uevent", "MAJOR=8\nMINOR=17\nDEVNAME=sdb1\n");
    write(
        "etc/cluster/cluster.conf",
        """
        <?xml version="1.0"?>
        <cluster name="c" config_version="3">
          <gfs_controld plock_rate_limit="100" plock_ownership="1"/>
          <dlm protocol="tcp"/>
        </cluster>
        """);
    MountInfo mount =
        new MountInfo(
            "/mnt/ocfs2", "ocfs2", "/dev/sdb1", "rw,relatime,localalloc=16,data=writeback");

    NodeEnvironment env = NodeEnvironment.capture(base, Optional.of(mount), 4);

    assertThat(env.kernel()).isEqualTo("5.14.0-lockstep");
    assertThat(env.cpuCount()).isEqualTo(4);
    assertThat(env.cpuModel()).isEqualTo("Test CPU @ 2.0GHz");
    assertThat(env.memoryBytes()).isEqualTo(16384L * 1024);
    assertThat(env.blockDevice()).isEqualTo("sdb1");
    assertThat(env.clusterSettings())
        .containsEntry("cluster.conf:gfs_controld.plock_rate_limit", "100")
        .containsEntry("cluster.conf:gfs_controld.plock_ownership", "1")
        .containsEntry("cluster.conf:dlm.protocol", "tcp")
        .containsEntry("ocfs2:localalloc", "16")
        .containsEntry("ocfs2:data", "writeback")
        .doesNotContainKey("ocfs2:rw");
  }

  @Test
  void namesNfsSettingsTheSameForV3AndV4AndLeavesTheAddressesOut() throws IOException {
    // as a lab guest's /proc/self/mountinfo showed them (Debian 12, kernel 6.1.0-57, 2026-12-07;
    // node1 mounting node3's export): the mount options, then the super options. There a v4 mount
    // with local_lock=all (4.0 or 4.2, nosharecache or not) read back local_lock=none.
    MountInfo v3 =
        new MountInfo(
            "/mnt/nfs3",
            "nfs",
            "192.168.77.3:/mnt/priv/export",
            "rw,relatime,rw,vers=3,rsize=262144,wsize=262144,namlen=255,hard,nolock,proto=tcp,"
                + "timeo=600,retrans=2,sec=sys,mountaddr=192.168.77.3,mountvers=3,mountport=57271,"
                + "mountproto=udp,local_lock=all,addr=192.168.77.3");
    MountInfo v4 =
        new MountInfo(
            "/mnt/nfs4",
            "nfs4",
            "192.168.77.3:/mnt/priv/export",
            "rw,relatime,rw,sync,vers=4.2,rsize=262144,wsize=262144,namlen=255,acregmin=0,"
                + "acregmax=0,acdirmin=0,acdirmax=0,soft,noac,proto=tcp,timeo=600,retrans=2,sec=sys,"
                + "clientaddr=192.168.77.1,lookupcache=pos,local_lock=none,addr=192.168.77.3");

    assertThat(NodeEnvironment.capture(base, Optional.of(v3), 1).clusterSettings())
        .containsEntry("nfs:vers", "3")
        .containsEntry("nfs:proto", "tcp")
        .containsEntry("nfs:local_lock", "all")
        .containsEntry("nfs:lock", "off")
        .containsEntry("nfs:hard", "on")
        .containsEntry("nfs:timeo", "600")
        .containsEntry("nfs:retrans", "2")
        .containsEntry("nfs:rsize", "262144")
        .doesNotContainKeys("nfs:addr", "nfs:mountaddr", "nfs:mountport", "nfs:namlen", "nfs:rw");
    assertThat(NodeEnvironment.capture(base, Optional.of(v4), 1).clusterSettings())
        .containsEntry("nfs:vers", "4.2")
        .containsEntry("nfs:local_lock", "none")
        .containsEntry("nfs:lock", "on")
        .containsEntry("nfs:hard", "off")
        .containsEntry("nfs:ac", "off")
        .containsEntry("nfs:acregmax", "0")
        .containsEntry("nfs:lookupcache", "pos")
        .doesNotContainKeys("nfs4:vers", "nfs:clientaddr", "nfs:addr", "nfs:lease_time");

    // the v4 client learns the server's lease time: a lab guest's /proc/self/mountstats (another
    // mount's block first, as there)
    Path stats = base.resolve("proc/self/mountstats");
    Files.createDirectories(stats.getParent());
    Files.writeString(
        stats,
        "device /dev/vda mounted on / with fstype ext4\n"
            + "device 192.168.77.3:/mnt/priv/export mounted on /mnt/nfs4 with fstype nfs4"
            + " statvers=1.1\n"
            + "\topts:\trw,vers=4.2,rsize=262144,wsize=262144,namlen=255,hard,proto=tcp\n"
            + "\tage:\t19\n"
            + "\tnfsv4:\tbm0=0xfdffbfff,bm1=0x40fdbe3e,bm2=0x60803,acl=0x3,sessions,pnfs=not"
            + " configured,lease_time=15,lease_expired=0\n"
            + "\tsec:\tflavor=1,pseudoflavor=1\n");
    assertThat(NodeEnvironment.capture(base, Optional.of(v4), 1).clusterSettings())
        .containsEntry("nfs:lease_time", "15");
    assertThat(NodeEnvironment.capture(base, Optional.of(v3), 1).clusterSettings())
        .doesNotContainKey("nfs:lease_time");
  }

  @Test
  void aNodeThatServesNfsNamesNfsdsGraceAndLeaseAndOneWithoutThreadsDoesNot() throws IOException {
    write("proc/fs/nfsd/threads", "8\n");
    write("proc/fs/nfsd/nfsv4gracetime", "15\n");
    write("proc/fs/nfsd/nfsv4leasetime", "20\n");
    write("proc/sys/fs/nfs/nlm_grace_period", "15\n");
    assertThat(NodeEnvironment.capture(base, Optional.empty(), 1).clusterSettings())
        .containsEntry("nfsd:threads", "8")
        .containsEntry("nfsd:grace_time", "15")
        .containsEntry("nfsd:lease_time", "20")
        .containsEntry("lockd:nlm_grace_period", "15");
    // a client with nfsd's file system mounted but no nfsd running serves nothing
    write("proc/fs/nfsd/threads", "0\n");
    assertThat(NodeEnvironment.capture(base, Optional.empty(), 1).clusterSettings())
        .doesNotContainKeys("nfsd:threads", "nfsd:grace_time", "lockd:nlm_grace_period");
  }

  @Test
  void aSandboxedAgentWithoutProcFsNfsdReadsNfsdsThreadsFromRpcAndItsTimesFromNfsConf()
      throws IOException {
    write("proc/net/rpc/nfsd", "rc 0 0 0\nth 8 0 0.000 0.000\nio 0 0\n");
    write(
        "etc/nfs.conf",
        "[general]\ngrace-time = 99\n[nfsd]\n# grace-time=90\ngrace-time = 20\nlease-time = 30\n"
            + "[statd]\nlease-time = 7\n");
    write("etc/nfs.conf.d/local.conf", "[nfsd]\nlease-time=15\n");
    write("proc/sys/fs/nfs/nlm_grace_period", "0\n");
    assertThat(NodeEnvironment.capture(base, Optional.empty(), 1).clusterSettings())
        .containsEntry("nfsd:threads", "8")
        .containsEntry("nfs.conf:nfsd.grace-time", "20")
        .containsEntry("nfs.conf:nfsd.lease-time", "15")
        .containsEntry("lockd:nlm_grace_period", "0")
        .doesNotContainKeys("nfsd:grace_time", "nfsd:lease_time");
  }

  @Test
  void namesTheCpusTheAgentIsConfinedTo() throws IOException {
    write("sys/devices/system/cpu/online", "0-1\n");
    write("proc/self/status", "Name:\tjava\nCpus_allowed:\t2\nCpus_allowed_list:\t1\n");
    assertThat(NodeEnvironment.capture(base, Optional.empty(), 1).clusterSettings())
        .containsEntry("host:cpu-affinity", "1 of 0-1");

    write("proc/self/status", "Name:\tjava\nCpus_allowed_list:\t0-1\n");
    assertThat(NodeEnvironment.capture(base, Optional.empty(), 2).clusterSettings())
        .doesNotContainKey("host:cpu-affinity");
  }

  @Test
  void missingFilesLeaveFieldsEmpty() {
    MountInfo mount = new MountInfo("/", "ext4", "/dev/nonexistent", "rw");
    NodeEnvironment env = NodeEnvironment.capture(base, Optional.of(mount), 2);
    assertThat(env.kernel()).isEmpty();
    assertThat(env.memoryBytes()).isZero();
    assertThat(env.clusterSettings()).isEmpty();
    assertThat(env.blockDevice()).isEqualTo("nonexistent");
  }

  @Test
  void brokenClusterConfIsReportedNotThrown() throws IOException {
    write("etc/cluster/cluster.conf", "<cluster><gfs_controld");
    NodeEnvironment env = NodeEnvironment.capture(base, Optional.empty(), 1);
    assertThat(env.clusterSettings()).containsKey("cluster.conf:error");
  }

  @Test
  void readsThisMachine() {
    NodeEnvironment env = NodeEnvironment.capture(Path.of("/tmp"));
    assertThat(env.kernel()).isNotBlank();
    assertThat(env.cpuCount()).isPositive();
    assertThat(env.memoryBytes()).isPositive();
  }
}
