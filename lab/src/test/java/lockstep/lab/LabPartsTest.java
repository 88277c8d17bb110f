package lockstep.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import lockstep.coordinator.inventory.Inventory;
import lockstep.coordinator.inventory.InventoryNode;
import lockstep.coordinator.inventory.InventoryParser;
import org.assertj.core.api.AbstractStringAssert;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LabPartsTest {
  private static final LabPaths LAB = new LabPaths(Path.of("/lab"));

  @TempDir Path tmp;

  @Test
  void emulatedGuestsGetALongerLeaseUnlessTheRunSetsOne() {
    assertThat(Accelerator.runOptions("tcg", List.of("--out", "r")))
        .containsExactly("--out", "r", "--lease", "60s");
    assertThat(Accelerator.runOptions("tcg", List.of("--lease", "1m")))
        .containsExactly("--lease", "1m");
    assertThat(Accelerator.runOptions("tcg", List.of("--lease=20s")))
        .containsExactly("--lease=20s");
    assertThat(Accelerator.runOptions("kvm", List.of("--out", "r"))).containsExactly("--out", "r");
  }

  @Test
  void kvmOnlyWhereDevKvmIsThereAndNotPvm() throws Exception {
    Path kvm = tmp.resolve("kvm");
    Path pvm = tmp.resolve("kvm_pvm");
    assertThat(Accelerator.choose("auto", kvm, pvm).name()).isEqualTo("tcg");
    Files.createFile(kvm);
    assertThat(Accelerator.choose("auto", kvm, pvm).name()).isEqualTo("kvm");
    Files.createDirectory(pvm);
    Accelerator a = Accelerator.choose("auto", kvm, pvm);
    assertThat(a.name()).isEqualTo("tcg");
    assertThat(a.why()).contains("PVM");
    assertThat(a.qemuArgs()).containsExactly("-accel", "tcg,tb-size=1024", "-cpu", "max");
    assertThat(Accelerator.choose("kvm", kvm, pvm).qemuArgs())
        .containsExactly("-accel", "kvm", "-cpu", "host");
    assertThat(Accelerator.choose("tcg", kvm, pvm).name()).isEqualTo("tcg");
    assertThatThrownBy(() -> Accelerator.choose("kvm", tmp.resolve("none"), pvm))
        .isInstanceOf(LabException.class)
        .hasMessageContaining("does not exist");
  }

  @Test
  void setKeysAreCheckedOneLineEach() {
    assertThat(LabSetting.parse("plock_rate_limit=0"))
        .isEqualTo(new LabSetting.Change(LabSetting.PLOCK_RATE_LIMIT, 0));
    assertThat(LabSetting.parse("disk-mbps=5").value()).isEqualTo(5);
    assertThatThrownBy(() -> LabSetting.parse("plock_ownership=2"))
        .hasMessage("set: plock_ownership=2 is outside 0..1");
    assertThatThrownBy(() -> LabSetting.parse("nonsense=1"))
        .hasMessage(
            "set: unknown key 'nonsense' (keys: plock_rate_limit, plock_ownership, disk-mbps,"
                + " localalloc, nfs_vers, nfs_local_lock, nfs_lock, nfs_actimeo, nfs_lookupcache,"
                + " nfs_grace, nfs_lease)");
    assertThat(LabSetting.parse("localalloc=8"))
        .isEqualTo(new LabSetting.Change(LabSetting.LOCALALLOC, 8));
    assertThatThrownBy(() -> LabSetting.parse("localalloc=-1"))
        .hasMessage("set: localalloc=-1 is outside 0..4096");
    assertThatThrownBy(() -> LabSetting.parse("disk-mbps")).hasMessageContaining("not KEY=VALUE");
    assertThatThrownBy(() -> LabSetting.parse("disk-mbps=fast"))
        .hasMessageContaining("not a whole number");
  }

  @Test
  void aStateWhoseProcessesAllEndedWasLeftBehind() throws Exception {
    Process ended = new ProcessBuilder("true").start();
    ended.waitFor();
    long mine = ProcessHandle.current().pid(); // alive, but not a process of the lab in tmp
    Process guest = new ProcessBuilder("sh", "-c", "sleep 30; :", tmp.toString()).start();
    try {
      assertThat(Lab.leftBehind(stateWith(Map.of("storage", ended.pid())), tmp)).isTrue();
      assertThat(Lab.leftBehind(stateWith(Map.of("storage", ended.pid(), "node1", mine)), tmp))
          .isTrue();
      assertThat(
              Lab.leftBehind(stateWith(Map.of("storage", ended.pid(), "node1", guest.pid())), tmp))
          .as("one process still runs: broken, not left behind")
          .isFalse();
    } finally {
      guest.destroyForcibly().waitFor();
    }
  }

  private static LabState stateWith(Map<String, Long> pids) {
    return new LabState(
        "lockstep-lab-x",
        "/img",
        "/key",
        "tcg",
        "test",
        1536,
        1,
        2,
        0,
        pids,
        List.of(),
        Map.of(),
        "now");
  }

  @Test
  void labSettingsOutOfBoundsNameTheOption() {
    Path d = LabConfig.DEFAULT_DIR;
    assertThatThrownBy(() -> new LabConfig(d, d, "auto", 1536, 0, 2, 0, 20, null, 100, 1))
        .isInstanceOf(LabException.class)
        .hasMessage("--cpus: 0 is not 1 to 16");
    assertThatThrownBy(() -> new LabConfig(d, d, "qemu", 1536, 1, 2, 0, 20, null, 100, 1))
        .hasMessage("--accel: 'qemu' is not auto, kvm or tcg");
    assertThatThrownBy(() -> new LabConfig(d, d, "tcg", 256, 1, 2, 0, 20, null, 100, 1))
        .hasMessage("--memory: 256 MiB is too little for a guest (512+)");
    assertThatThrownBy(() -> new LabConfig(d, d, "tcg", 1536, 2, 2, 0, 20, -1, 100, 1))
        .hasMessage("--localalloc: -1 is outside 0..4096");
    assertThatThrownBy(() -> new LabConfig(d, d, "tcg", 1536, 2, 2, 0, 20, 5000, 100, 1))
        .as("the bounds of lab set localalloc= hold at boot too")
        .hasMessage("--localalloc: 5000 is outside 0..4096");
    assertThatThrownBy(() -> new LabConfig(d, d, "tcg", 1536, 2, 2, 0, 0, null, 100, 1))
        .hasMessage("--disk-mbps: 0 is outside 1..100000");
    assertThatThrownBy(() -> new LabConfig(d, d, "tcg", 1536, 1, 5, 0, 20, null, 100, 1))
        .hasMessage("--nodes: 5 is outside 2..4");
    assertThatThrownBy(() -> new LabConfig(d, d, "tcg", 1536, 1, 3, 2, 20, null, 100, 1))
        .hasMessage("--servers: 2 of 3 nodes leaves fewer than 2 clients");
    assertThat(new LabConfig(d, d, "tcg", 1536, 2, 2, 0, 20, null, 0, 0).cpus()).isEqualTo(2);
  }

  @Test
  void unknownStackIsOneLine() {
    assertThat(Stack.parse("GFS2")).isEqualTo(Stack.GFS2);
    assertThat(Stack.parse("nfs")).isEqualTo(Stack.NFS);
    assertThatThrownBy(() -> Stack.parse("cephfs"))
        .hasMessage("unknown stack 'cephfs' (known: gfs2, ocfs2, nfs)");
  }

  @Test
  void guestCommandLineKeepsEverythingOnTheNamespacesLoopback() {
    GuestImage image = new GuestImage(Path.of("/cache/image-k"), "k", Path.of("/cache/key"));
    LabNode n2 = LabNode.of(3, 0).get(1);
    assertCommand(
            QemuCommand.guest(n2, image, LAB, new Accelerator("tcg", "test"), 1536, 2),
            "qemu-system-x86_64")
        .contains("-name node2,process=lockstep-node2")
        .contains("-m 1536 -smp 2")
        .contains("-append tsc=reliable root=LABEL=")
        .contains("-kernel /cache/image-k/vmlinuz -initrd /cache/image-k/initrd.img")
        .contains("systemd.hostname=node2 ip=192.168.77.2:::255.255.255.0::clu0:off")
        .contains("file=/lab/gfs2.img,if=none,id=gfs2,format=raw,cache=none")
        .contains("virtio-blk-pci,drive=gfs2,serial=gfs2,share-rw=on")
        .contains("driver=nbd,server.type=unix,server.path=/lab/storage.nbd,export=ocfs2")
        .contains("export=priv2")
        .contains("-netdev tap,id=clu,ifname=lstap2,script=no,downscript=no")
        .contains("virtio-net-pci,netdev=clu,id=clu-nic,mac=52:54:00:00:01:02")
        .contains("virtio-net-pci,netdev=mgmt,id=mgmt-nic,mac=52:54:00:00:00:12")
        .contains("-qmp unix:/lab/node2.qmp,server=on,wait=off")
        .contains("-daemonize -pidfile /lab/node2.pid");
    // every forward is from 127.0.0.1 of the namespace; both protocols for the agent's port
    String mgmt = QemuCommand.mgmtNetdev(n2);
    assertThat(mgmt)
        // not restrict=on: libslirp's restricted mode drops the answers to forwarded UDP ports
        .isEqualTo(
            "user,id=mgmt,restrict=off,hostfwd=tcp:127.0.0.1:2222-:22,"
                + "hostfwd=tcp:127.0.0.1:7072-:7070,hostfwd=udp:127.0.0.1:7072-:7070");
    for (String fwd : mgmt.split(",")) {
      if (fwd.startsWith("hostfwd=")) {
        assertThat(fwd).matches("hostfwd=(tcp|udp):127\\.0\\.0\\.1:\\d+-:\\d+");
      }
    }
  }

  @Test
  void everythingOfANodeFollowsFromItsIndexAndDiffersBetweenNodes() {
    List<LabNode> all = LabNode.of(LabNode.MAX, 0);
    List<Object> unique = new java.util.ArrayList<>();
    for (LabNode n : all) {
      unique.addAll(
          List.of(
              n.sshPort(),
              n.mgmtMac(),
              n.clusterMac(),
              n.clusterAddress(),
              n.tap(),
              n.agentPort()));
    }
    assertThat(unique).doesNotHaveDuplicates();
    LabNode n4 = all.get(3);
    assertThat(n4.name()).isEqualTo("node4");
    assertThat(n4.sshPort()).isEqualTo(2224);
    assertThat(n4.agentPort()).isEqualTo(7074);
    assertThat(n4.clusterAddress()).isEqualTo("192.168.77.4");
    assertThat(n4.mgmtMac()).isEqualTo("52:54:00:00:00:14");
    assertThat(n4.clusterMac()).isEqualTo("52:54:00:00:01:04");
  }

  @Test
  void theLastNodesAreServersAndOnlyClientsMountTheStacks() {
    List<LabNode> nodes = LabNode.of(3, 1);
    assertThat(nodes)
        .extracting(n -> n.role())
        .containsExactly(LabNode.Role.CLIENT, LabNode.Role.CLIENT, LabNode.Role.SERVER);
    assertThat(LabNode.clients(nodes)).extracting(LabNode::name).containsExactly("node1", "node2");
    assertThatThrownBy(() -> LabNode.of(1, 0)).hasMessage("--nodes: 1 is outside 2..4");
    assertThatThrownBy(() -> LabNode.named("node7", nodes))
        .hasMessage("no node 'node7' in the lab (node1, node2, node3)");
  }

  /** The image names the NICs and the hosts of every node a lab can have. */
  @Test
  void theImageKnowsEveryNodeALabCanHave() throws Exception {
    Path rootfs = Path.of("..").toAbsolutePath().normalize().resolve("deploy/lab/image/rootfs");
    String hosts = Files.readString(rootfs.resolve("etc/hosts"));
    String mgmt = Files.readString(rootfs.resolve("etc/systemd/network/10-lab-mgmt.link"));
    String clu = Files.readString(rootfs.resolve("etc/systemd/network/10-lab-clu.link"));
    for (LabNode n : LabNode.of(LabNode.MAX, 0)) {
      assertThat(hosts).contains(n.clusterAddress() + " " + n.name());
      assertThat(mgmt).contains(n.mgmtMac());
      assertThat(clu).contains(n.clusterMac());
    }
  }

  @Test
  void storageDaemonServesOneBudgetToBothAndOneToEachPrivateDisk() {
    assertCommand(
            QemuCommand.storageDaemon(LAB, LabNode.of(3, 0), 20_000_000L), "qemu-storage-daemon")
        .contains("driver=file,filename=/lab/ocfs2.img,node-name=ocfs2-file,cache.direct=on")
        .contains("throttle-group,id=tg-ocfs2,x-bps-write=20000000")
        .contains("throttle-group,id=tg-priv1,x-bps-write=20000000")
        .contains("throttle-group,id=tg-priv2,x-bps-write=20000000")
        .contains("throttle-group,id=tg-priv3,x-bps-write=20000000")
        .contains("driver=throttle,node-name=ocfs2,file=ocfs2-file,throttle-group=tg-ocfs2")
        .contains("--nbd-server addr.type=unix,addr.path=/lab/storage.nbd")
        .contains("type=nbd,id=export-ocfs2,node-name=ocfs2,name=ocfs2,writable=on")
        .contains("--chardev socket,id=qmp,path=/lab/storage.qmp,server=on,wait=off")
        .contains("--daemonize --pidfile /lab/storage.pid");
  }

  @Test
  void inventoryIsReadByTheCoordinatorsOwnParser() throws Exception {
    LabState state = state().withStack(Stack.OCFS2);
    Path dir = Files.createDirectories(tmp.resolve("ocfs2"));
    Path file = dir.resolve("inventory.yaml");
    Files.writeString(file, LabInventory.yaml(Stack.OCFS2, state, dir, tmp.resolve("certs")));
    Inventory inv = new InventoryParser().parse(file);
    // each guest's one agent, this stack's root among its roots
    assertThat(inv.addresses()).containsExactly("127.0.0.1:7071", "127.0.0.1:7072");
    assertThat(inv.nodes().get(1).labels()).containsEntry("lab-nodes", "2");
    InventoryNode n1 = inv.nodes().get(0);
    assertThat(n1.name()).isEqualTo("node1");
    assertThat(n1.root()).isEqualTo("/mnt/ocfs2/lockstep");
    assertThat(n1.listen()).isEqualTo("0.0.0.0:7070");
    assertThat(n1.sshPort()).isEqualTo(2221);
    assertThat(n1.labels())
        .containsEntry("lab-accel", "tcg")
        .containsEntry("lab-stack", "ocfs2")
        .containsEntry("lab-disk-mbps", "20")
        .containsEntry("lab-localalloc", "default")
        .doesNotContainKey("lab-plock-rate-limit");
    assertThat(inv.security().ca().normalize()).isEqualTo(tmp.resolve("certs/ca.pem"));
    assertThat(inv.security().key().normalize())
        .isEqualTo(tmp.resolve("certs/coordinator-key.pem"));
  }

  @Test
  void theNfsInventoryHasItsServerAsAWatchOnlyNodeOnTheDiskItExports() throws Exception {
    LabState base = state();
    LabState state =
        new LabState(
                base.namespace(),
                base.imageDir(),
                base.sshKey(),
                base.accel(),
                base.accelWhy(),
                base.memoryMib(),
                base.cpus(),
                3,
                1,
                Map.of(),
                List.of(),
                base.settings(),
                base.bootedAt())
            .withStack(Stack.NFS);
    Path dir = Files.createDirectories(tmp.resolve("nfs"));
    Path file = dir.resolve("inventory.yaml");
    Files.writeString(file, LabInventory.yaml(Stack.NFS, state, dir, tmp.resolve("certs")));
    Inventory inv = new InventoryParser().parse(file);
    assertThat(inv.nodes())
        .extracting(InventoryNode::name, InventoryNode::root, InventoryNode::watchOnly)
        .containsExactly(
            tuple("node1", "/mnt/nfs/lockstep", false),
            tuple("node2", "/mnt/nfs/lockstep", false),
            tuple("node3", "/mnt/priv/lockstep", true));
    assertThat(inv.watchOnlyAddresses()).containsExactly("127.0.0.1:7073");
    // GFS2's has no server: its clients only
    Files.writeString(file, LabInventory.yaml(Stack.GFS2, state, dir, tmp.resolve("certs")));
    assertThat(new InventoryParser().parse(file).nodes())
        .extracting(InventoryNode::name)
        .containsExactly("node1", "node2");
    // certificates for every guest
    Files.writeString(file, LabInventory.nodes(state.nodes()));
    assertThat(new InventoryParser().parse(file).nodes())
        .extracting(InventoryNode::name)
        .containsExactly("node1", "node2", "node3");
  }

  @Test
  void stateSurvivesAWriteAndARead() {
    LabState s = state().withPid("node1", 42).withStack(Stack.GFS2).withSetting("disk-mbps", "5");
    Path f = tmp.resolve("state.json");
    s.write(f);
    LabState back = LabState.read(f).orElseThrow();
    assertThat(back).isEqualTo(s);
    assertThat(back.has(Stack.GFS2)).isTrue();
    assertThat(back.has(Stack.OCFS2)).isFalse();
    assertThat(LabState.read(tmp.resolve("none.json"))).isEmpty();
  }

  @Test
  void imageKeyFollowsEveryInput() {
    ImageRecipe a = hostsRecipe(List.of("systemd", "corosync"), "x");
    ImageRecipe same = hostsRecipe(List.of("systemd", "corosync"), "x");
    ImageRecipe otherFile = hostsRecipe(List.of("systemd", "corosync"), "y");
    ImageRecipe otherPackages = hostsRecipe(List.of("systemd"), "x");
    assertThat(a.key()).hasSize(16).isEqualTo(same.key());
    assertThat(otherFile.key()).isNotEqualTo(a.key());
    assertThat(otherPackages.key()).isNotEqualTo(a.key());
  }

  @Test
  void packageListIgnoresCommentsAndRefusesOddNames() {
    assertThat(ImageRecipe.parsePackages("# c\nsystemd  # init\n\nopenjdk-17-jre-headless\n"))
        .containsExactly("systemd", "openjdk-17-jre-headless");
    assertThatThrownBy(() -> ImageRecipe.parsePackages("foo;rm -rf /\n"))
        .hasMessageContaining("is not a package name");
    assertThatThrownBy(() -> ImageRecipe.parsePackages("# nothing\n"))
        .hasMessageContaining("no package");
  }

  @Test
  void theRepositorysRecipeReadsAndMmdebstrapGetsIt() {
    LabFiles files =
        new LabFiles(
            Path.of("..").toAbsolutePath().normalize(), Path.of("c.jar"), Path.of("l.jar"));
    ImageRecipe r = ImageRecipe.read(files, "ssh-ed25519 AAAA test");
    assertThat(r.packages())
        .contains(
            "linux-image-amd64",
            "systemd-sysv",
            "python3",
            "openssh-server",
            "corosync",
            "dlm-controld",
            "gfs2-utils",
            "ocfs2-tools",
            "ctdb",
            "openjdk-17-jre-headless");
    assertThat(r.key()).isNotEqualTo(ImageRecipe.read(files, "ssh-ed25519 BBBB test").key());
    List<String> cmd =
        ImageBuilder.mmdebstrap(
            r, Path.of("/r"), Path.of("/s"), Path.of("/t"), "/etc/apt/x.sources");
    assertThat(cmd.subList(0, 2)).containsExactly("mmdebstrap", "--variant=minbase");
    assertThat(cmd).contains("--customize-hook=sync-in /r /");
    assertThat(cmd.subList(cmd.size() - 3, cmd.size()))
        .containsExactly("bookworm", "/t", "/etc/apt/x.sources");
  }

  @Test
  void missingProgramsNameTheirPackages() throws Exception {
    Path bin = Files.createDirectories(tmp.resolve("bin"));
    assertThatThrownBy(() -> HostCheck.programs(HostCheck.RUN, List.of(bin)))
        .isInstanceOf(LabException.class)
        .hasMessageStartingWith(
            "missing on this host: apt-get install qemu-system-x86 qemu-system-common qemu-utils");
    for (String p : HostCheck.RUN.keySet()) {
      Path f = Files.createFile(bin.resolve(p));
      f.toFile().setExecutable(true);
    }
    HostCheck.programs(HostCheck.RUN, List.of(bin));
  }

  @Test
  void oneAgentPerGuestIsDeployedWithTheProjectsPlaybookWithARootOnEveryStack() throws Exception {
    Path repo = Files.createDirectories(tmp.resolve("repo"));
    Path deb =
        Files.createFile(
            Files.createDirectories(repo.resolve("dist/target"))
                .resolve("lockstep-agent_0.1.0_amd64.deb"));
    LabFiles files = new LabFiles(repo, repo.resolve("c.jar"), repo.resolve("l.jar"));
    AgentDeploy d = new AgentDeploy(LAB, files, null, null);
    List<String> c =
        d.ansible(
            AgentDeploy.clientServices(List.of(Stack.GFS2, Stack.OCFS2)),
            LAB.inventory(Stack.GFS2),
            Path.of("/key"),
            1);
    assertThat(c.subList(0, 2))
        .containsExactly("ansible-playbook", repo.resolve("deploy/ansible/site.yml").toString());
    assertThat(String.join(" ", c))
        .contains("-e lockstep_inventory=/lab/gfs2/inventory.yaml")
        .contains("-e lockstep_tls_dir=/lab/certs")
        .contains("-e lockstep_agent_package=" + deb)
        .contains(
            "-e {\"lockstep_services\": [{\"service\": \"lockstep-agent\", \"root\":"
                + " \"/mnt/gfs2/lockstep\", \"listen\": \"0.0.0.0:7070\", \"root_mount_point\":"
                + " \"/mnt/gfs2\", \"more_roots\": [{\"root\": \"/mnt/ocfs2/lockstep\","
                + " \"mount_point\": \"/mnt/ocfs2\"}]}], \"lockstep_java_opts\":"
                + " \"-XX:TieredStopAtLevel=1"
                + " -XX:+UseSerialGC\", \"lockstep_agent_opts\": \"--spare-workers 2\","
                + " \"lockstep_worker_java_opts\": \"-XX:CompileThresholdScaling=1\","
                + " \"lockstep_cpu_affinity\": \"\"}")
        .contains("--private-key /key");
    assertThat(
            String.join(
                " ",
                d.ansible(
                    AgentDeploy.clientServices(List.of(Stack.GFS2)),
                    LAB.inventory(Stack.GFS2),
                    Path.of("/k"),
                    2)))
        .contains("\"lockstep_cpu_affinity\": \"1\"}")
        .doesNotContain("ocfs2");
    // an NFS server's agent watches only, its root on the disk it exports
    assertThat(AgentDeploy.watchService())
        .isEqualTo(
            "{\"service\": \"lockstep-agent\", \"root\": \"/mnt/priv/lockstep\", \"listen\":"
                + " \"0.0.0.0:7070\", \"root_mount_point\": \"/mnt/priv\", \"more_roots\": []}");
    Map<String, String> env = AgentDeploy.ansibleEnv(Path.of("/key"), LAB.knownHosts(), LAB.dir());
    assertThat(env.get("ANSIBLE_SSH_ARGS"))
        .contains("UserKnownHostsFile=/lab/known_hosts")
        .contains("StrictHostKeyChecking=yes")
        .contains("ControlPath=/lab/ssh-%C")
        .contains("ConnectTimeout=30")
        .contains("ServerAliveCountMax=12");
    assertThat(env).containsEntry("ANSIBLE_PIPELINING", "True");
  }

  @Test
  void aLabOutsideTheDefaultDirectoryHasANamespaceOfItsOwn() {
    assertThat(Netns.nameFor(LabConfig.DEFAULT_DIR)).isEqualTo("lockstep-lab");
    String it = Netns.nameFor(Path.of("/var/tmp/lockstep-lab-it"));
    assertThat(it).startsWith("lockstep-lab-").isNotEqualTo(Netns.nameFor(Path.of("/other")));
    assertThat(Netns.exec("ns", List.of("ssh", "x")))
        .containsExactly("ip", "netns", "exec", "ns", "ssh", "x");
  }

  @Test
  void aSettingThatRemountsIsLeftAloneWhenItIsAlreadySo() throws Exception {
    // any guest command would fail here (no such namespace): only a change reaches the guests
    LabLog log = new LabLog(new PrintStream(OutputStream.nullOutputStream()), tmp.resolve("l"));
    Files.writeString(tmp.resolve("s"), "exit 1\n");
    Guests none =
        new Guests(
            "lockstep-no-such-ns",
            tmp.resolve("k"),
            tmp.resolve("h"),
            tmp.resolve("s"),
            new Commands(log));
    StackUp stacks = new StackUp(new LabPaths(tmp), none, log);
    LabState s = state().withSetting("localalloc", "8").withSetting("plock_ownership", "1");
    assertThat(stacks.set(LabSetting.parse("localalloc=8"), s)).isEqualTo(s);
    assertThat(stacks.set(LabSetting.parse("plock_ownership=1"), s)).isEqualTo(s);
    assertThatThrownBy(() -> stacks.set(LabSetting.parse("localalloc=0"), s))
        .isInstanceOf(LabException.class);
    // NFS's mount options of one set: one remount, none when the options come out as they are
    LabState nfs =
        new LabState(
            "ns", "/i", "/k", "tcg", "t", 1536, 1, 3, 1, Map.of(), List.of("nfs"), Map.of(), "now");
    for (LabSetting k : LabSetting.values()) {
      if (k.stack() == Stack.NFS) {
        nfs = nfs.withSetting(k.key(), k.initial());
      }
    }
    LabState before = nfs;
    assertThat(
            stacks.setNfsMount(
                List.of(LabSetting.parse("nfs_vers=4.2"), LabSetting.parse("nfs_lock=on")), before))
        .isEqualTo(before);
    assertThatThrownBy(
            () ->
                stacks.setNfsMount(
                    List.of(LabSetting.parse("nfs_vers=3"), LabSetting.parse("nfs_lock=off")),
                    before))
        .isInstanceOf(LabException.class);
  }

  @Test
  void nfsSettingsTakeTheirWordsAndNothingElse() {
    assertThat(LabSetting.parse("nfs_vers=3").word()).isEqualTo("3");
    assertThat(LabSetting.parse("nfs_vers=3").value()).isNull();
    assertThatThrownBy(() -> LabSetting.parse("nfs_vers=5"))
        .hasMessage("set: nfs_vers: '5' is not one of 4.2, 4.1, 4.0, 3");
    assertThatThrownBy(() -> LabSetting.parse("nfs_local_lock=yes"))
        .hasMessage("set: nfs_local_lock: 'yes' is not one of none, all, posix, flock");
    assertThatThrownBy(() -> LabSetting.parse("nfs_grace=5"))
        .hasMessage("set: nfs_grace=5 is outside 10..3600");
    assertThat(LabSetting.parse("nfs_actimeo=default").value()).isNull();
    assertThat(LabSetting.parse("nfs_lease=20").value()).isEqualTo(20);
    assertThat(LabSetting.NFS_LOCK.remounts()).isTrue();
    assertThat(LabSetting.NFS_GRACE.remounts()).isFalse();
  }

  @Test
  void nfsMountOptionsFollowTheSettings() {
    LabState s = state();
    for (LabSetting k : LabSetting.values()) {
      if (k.stack() == Stack.NFS) {
        s = s.withSetting(k.key(), k.initial());
      }
    }
    assertThat(StackUp.nfsOptions(s)).isEqualTo("vers=4.2,local_lock=none,lookupcache=all");
    LabState v3 =
        s.withSetting("nfs_vers", "3")
            .withSetting("nfs_lock", "off")
            .withSetting("nfs_actimeo", "0")
            .withSetting("nfs_local_lock", "all");
    assertThat(StackUp.nfsOptions(v3))
        .isEqualTo("vers=3,local_lock=all,nolock,actimeo=0,lookupcache=all");
  }

  @Test
  void aLabsShapeFollowsItsOptionsElseTheRunningLabElseItsStacks() {
    List<Stack> nfs = List.of(Stack.NFS);
    assertThat(LabShape.of(null, null, nfs, Optional.empty())).isEqualTo(new LabShape(3, 1));
    assertThat(LabShape.of(null, null, List.of(Stack.GFS2), Optional.empty()))
        .isEqualTo(new LabShape(2, 0));
    assertThat(LabShape.of(4, null, List.of(Stack.GFS2, Stack.NFS), Optional.empty()))
        .isEqualTo(new LabShape(4, 1));
    LabState up =
        new LabState(
            "ns", "/i", "/k", "tcg", "t", 1536, 1, 3, 1, Map.of(), List.of(), Map.of(), "now");
    assertThat(LabShape.of(null, null, List.of(Stack.GFS2), Optional.of(up)))
        .isEqualTo(new LabShape(3, 1));
    assertThatThrownBy(() -> LabShape.of(null, 0, nfs, Optional.empty()))
        .isInstanceOf(LabException.class)
        .hasMessage(
            "--servers: nfs needs a server node (the last node serves: --servers 1; a lab that is"
                + " up keeps its nodes: lab down first)");
    assertThatThrownBy(() -> LabShape.of(null, null, nfs, Optional.of(state())))
        .hasMessageStartingWith("--servers: nfs needs a server node");
  }

  @Test
  void nfsNeedsAServerNode() {
    assertThatThrownBy(() -> state().nfsServer())
        .isInstanceOf(LabException.class)
        .hasMessageContaining("--servers 1");
    LabState withServer =
        new LabState(
            "ns", "/i", "/k", "tcg", "t", 1536, 1, 3, 1, Map.of(), List.of(), Map.of(), "now");
    assertThat(withServer.nfsServer().name()).isEqualTo("node3");
    assertThat(withServer.clients()).extracting(LabNode::name).containsExactly("node1", "node2");
  }

  @Test
  void localallocGoesBackToTheKernelsDefault() {
    LabSetting.Change c = LabSetting.parse("localalloc=default");
    assertThat(c.value()).isNull();
    assertThat(c.word()).isEqualTo("default");
    assertThatThrownBy(() -> LabSetting.parse("disk-mbps=default"))
        .hasMessage("set: disk-mbps: 'default' is not a whole number");
  }

  @Test
  void theLabCommandsProgramsEndWhenItIsInterruptedAndNoneStartsAfter() throws Exception {
    LabLog log = new LabLog(new PrintStream(OutputStream.nullOutputStream()), tmp.resolve("l"));
    Commands commands = new Commands(log);
    var running =
        java.util.concurrent.CompletableFuture.supplyAsync(
            () -> commands.run(List.of("sh", "-c", "sleep 60 & wait"), Duration.ofMinutes(2)));
    long t0 = System.nanoTime();
    while (ProcessHandle.current()
        .descendants()
        .noneMatch(p -> p.info().command().orElse("").endsWith("sleep"))) {
      assertThat(System.nanoTime() - t0).as("sleep started").isLessThan(10_000_000_000L);
      Thread.onSpinWait();
    }
    commands.cancel("interrupted (test)", Duration.ofSeconds(2));
    assertThatThrownBy(running::join)
        .hasCauseInstanceOf(LabInterruptedException.class)
        .hasMessageContaining("interrupted (test)");
    assertThat(System.nanoTime() - t0).as("ended within the grace").isLessThan(5_000_000_000L);
    assertThat(ProcessHandle.current().descendants().filter(ProcessHandle::isAlive))
        .as("no child left")
        .noneMatch(p -> p.info().command().orElse("").endsWith("sleep"));
    assertThatThrownBy(() -> commands.run(List.of("true"), Duration.ofSeconds(5)))
        .isInstanceOf(LabInterruptedException.class);
  }

  /** A recipe of these packages and one input file, rootfs/etc/hosts with {@code hosts} in it. */
  private static ImageRecipe hostsRecipe(List<String> packages, String hosts) {
    return new ImageRecipe(
        packages, List.of(new ImageRecipe.Input("rootfs/etc/hosts", hosts.getBytes())));
  }

  /** Checks that the command line runs {@code program}; then its words, joined by spaces. */
  private static AbstractStringAssert<?> assertCommand(List<String> c, String program) {
    assertThat(c.get(0)).isEqualTo(program);
    return assertThat(String.join(" ", c));
  }

  private static LabState state() {
    return new LabState(
        "lockstep-lab",
        "/cache/image-k",
        "/cache/key",
        "tcg",
        "test",
        1536,
        1,
        2,
        0,
        Map.of(),
        List.of(),
        Map.of(
            "disk-mbps",
            "20",
            "plock_rate_limit",
            "100",
            "plock_ownership",
            "1",
            "localalloc",
            "default"),
        "2026-12-01T00:00:00Z");
  }
}
