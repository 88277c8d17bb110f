package lockstep.agent.env;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import lockstep.agent.fs.MountInfo;
import org.w3c.dom.Element;
import org.w3c.dom.NamedNodeMap;
import org.w3c.dom.NodeList;

/**
 * Cluster settings that change lock and I/O figures, read from where they live: the attributes of
 * {@code <gfs_controld>} and {@code <dlm>} in /etc/cluster/cluster.conf (e.g. plock_rate_limit),
 * o2cb's timeouts in configfs, and the mount options of cluster file systems (OCFS2 localalloc,
 * data mode; GFS2 localflocks; ...). What only a daemon knows is {@link ClusterDaemons}'.
 */
final class ClusterSettings {
  static final List<String> CLUSTER_CONF_ELEMENTS = List.of("gfs_controld", "dlm");
  static final Set<String> CLUSTER_FS =
      Set.of(
          "ocfs2",
          "gfs2",
          "gfs",
          "fuse.glusterfs",
          "glusterfs",
          "nfs",
          "nfs4",
          "cephfs",
          "ceph",
          "lustre");

  private ClusterSettings() {}

  static Map<String, String> fromClusterConf(Path file) {
    Map<String, String> out = new TreeMap<>();
    if (!Files.isRegularFile(file)) {
      return out;
    }
    try {
      DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
      f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
      f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
      f.setExpandEntityReferences(false);
      var doc = f.newDocumentBuilder().parse(file.toFile());
      for (String name : CLUSTER_CONF_ELEMENTS) {
        NodeList nodes = doc.getElementsByTagName(name);
        for (int i = 0; i < nodes.getLength(); i++) {
          NamedNodeMap attrs = ((Element) nodes.item(i)).getAttributes();
          for (int a = 0; a < attrs.getLength(); a++) {
            out.put(
                "cluster.conf:" + name + "." + attrs.item(a).getNodeName(),
                attrs.item(a).getNodeValue());
          }
        }
      }
      if (out.isEmpty()) {
        out.put("cluster.conf:present", "yes (no gfs_controld/dlm settings: defaults apply)");
      }
    } catch (Exception e) {
      out.put("cluster.conf:error", "unreadable: " + e.getMessage());
    }
    return out;
  }

  /**
   * o2cb's cluster timeouts as the kernel holds them (configfs) and the OCFS2 cluster stack in use:
   * "o2cb:idle_timeout_ms", "o2cb:keepalive_delay_ms", "o2cb:reconnect_delay_ms",
   * "o2cb:heartbeat_dead_threshold" (disk heartbeat iterations of 2 s), "ocfs2:cluster_stack".
   */
  static Map<String, String> fromO2cb(Path base) {
    Map<String, String> out = new TreeMap<>();
    Path clusters = base.resolve("sys/kernel/config/cluster");
    try (var dirs = Files.list(clusters)) {
      for (Path c : dirs.sorted().toList()) {
        for (String f : List.of("idle_timeout_ms", "keepalive_delay_ms", "reconnect_delay_ms")) {
          NodeEnvironment.firstLine(c.resolve(f)).ifPresent(v -> out.put("o2cb:" + f, v));
        }
        NodeEnvironment.firstLine(c.resolve("heartbeat/dead_threshold"))
            .ifPresent(v -> out.put("o2cb:heartbeat_dead_threshold", v));
      }
    } catch (IOException | RuntimeException e) {
      // no o2cb cluster registered on this node
    }
    NodeEnvironment.firstLine(base.resolve("sys/fs/ocfs2/cluster_stack"))
        .filter(v -> !v.isEmpty())
        .ifPresent(v -> out.put("ocfs2:cluster_stack", v));
    return out;
  }

  /**
   * An NFS server's settings, where this node runs nfsd (its threads above 0): "nfsd:threads",
   * "nfsd:grace_time" and "nfsd:lease_time" (NFSv4, seconds, in effect: /proc/fs/nfsd, which only
   * root reads and a sandboxed agent's /proc lacks; else what /etc/nfs.conf and nfs.conf.d set,
   * "nfs.conf:nfsd.grace-time" and "nfs.conf:nfsd.lease-time") and "lockd:nlm_grace_period"
   * (NFSv3's NLM; 0 means the lease time). What bounds the clients' stall when the server restarts.
   */
  static Map<String, String> fromNfsd(Path base) {
    Map<String, String> out = new TreeMap<>();
    Path nfsd = base.resolve("proc/fs/nfsd");
    String threads =
        NodeEnvironment.firstLine(nfsd.resolve("threads"))
            .map(String::strip)
            .or(() -> rpcThreads(base.resolve("proc/net/rpc/nfsd")))
            .orElse("0");
    if (threads.isEmpty() || threads.equals("0")) {
      return out;
    }
    out.put("nfsd:threads", threads);
    Optional<String> grace = NodeEnvironment.firstLine(nfsd.resolve("nfsv4gracetime"));
    Optional<String> lease = NodeEnvironment.firstLine(nfsd.resolve("nfsv4leasetime"));
    grace.ifPresent(v -> out.put("nfsd:grace_time", v.strip()));
    lease.ifPresent(v -> out.put("nfsd:lease_time", v.strip()));
    if (grace.isEmpty() || lease.isEmpty()) {
      Map<String, String> conf = nfsConf(base.resolve("etc"));
      for (String key : List.of("grace-time", "lease-time")) {
        String v = conf.get(key);
        if (v != null) {
          out.put("nfs.conf:nfsd." + key, v);
        }
      }
    }
    NodeEnvironment.firstLine(base.resolve("proc/sys/fs/nfs/nlm_grace_period"))
        .ifPresent(v -> out.put("lockd:nlm_grace_period", v.strip()));
    return out;
  }

  /** The thread count of the "th" line of /proc/net/rpc/nfsd (readable by anyone). */
  private static Optional<String> rpcThreads(Path rpcNfsd) {
    try {
      return Files.readAllLines(rpcNfsd).stream()
          .filter(l -> l.startsWith("th "))
          .map(l -> l.split("\\s+")[1])
          .findFirst();
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  /**
   * The [nfsd] section of nfs.conf (etc/nfs.conf, then etc/nfs.conf.d/*.conf in name order, a later
   * file's key winning), keys as written.
   */
  static Map<String, String> nfsConf(Path etc) {
    Map<String, String> out = new TreeMap<>();
    List<Path> files = new ArrayList<>(List.of(etc.resolve("nfs.conf")));
    try (var d = Files.list(etc.resolve("nfs.conf.d"))) {
      d.filter(f -> f.getFileName().toString().endsWith(".conf")).sorted().forEach(files::add);
    } catch (IOException | RuntimeException e) {
      // no nfs.conf.d
    }
    for (Path f : files) {
      List<String> lines;
      try {
        lines = Files.readAllLines(f);
      } catch (IOException | RuntimeException e) {
        continue;
      }
      boolean inNfsd = false;
      for (String raw : lines) {
        String l = raw.strip();
        if (l.startsWith("[")) {
          inNfsd = l.equals("[nfsd]");
        } else if (inNfsd && !l.startsWith("#") && !l.startsWith(";") && l.contains("=")) {
          out.put(l.substring(0, l.indexOf('=')).strip(), l.substring(l.indexOf('=') + 1).strip());
        }
      }
    }
    return out;
  }

  /** name=value mount options of a cluster file system, e.g. "ocfs2:localalloc" -> "16". */
  static Map<String, String> fromMount(MountInfo m) {
    Map<String, String> out = new TreeMap<>();
    if (!CLUSTER_FS.contains(m.fsType())) {
      return out;
    }
    if (m.fsType().equals("nfs") || m.fsType().equals("nfs4")) {
      return nfsOptions(m.options());
    }
    String prefix = m.fsType().replace("fuse.", "") + ":";
    for (String opt : m.options().split(",")) {
      if (opt.isBlank()) {
        continue;
      }
      int eq = opt.indexOf('=');
      String key = eq < 0 ? opt : opt.substring(0, eq);
      if (Set.of("rw", "ro", "relatime", "noatime", "nodev", "nosuid", "noexec").contains(key)) {
        continue;
      }
      out.put(prefix + key, eq < 0 ? "on" : opt.substring(eq + 1));
    }
    return out;
  }

  /**
   * The server's NFSv4 lease time in seconds as the client learnt it (its {@code nfsv4:} line in
   * /proc/self/mountstats: {@code lease_time=15}): how long the server keeps a silent client's
   * locks. Empty for other mounts.
   */
  static Optional<String> nfsLeaseTime(Path mountstats, MountInfo m) {
    if (!m.fsType().equals("nfs4")) {
      return Optional.empty();
    }
    String device = " mounted on " + m.mountPoint() + " with fstype ";
    boolean mine = false;
    for (String line : NodeEnvironment.lines(mountstats)) {
      if (line.startsWith("device ")) {
        mine = line.contains(device);
      } else if (mine && line.strip().startsWith("nfsv4:")) {
        for (String field : line.strip().substring("nfsv4:".length()).strip().split(",")) {
          if (field.startsWith("lease_time=")) {
            return Optional.of(field.substring("lease_time=".length()));
          }
        }
      }
    }
    return Optional.empty();
  }

  /** NFS's options that are values, kept as the kernel shows them. */
  private static final Set<String> NFS_VALUES =
      Set.of(
          "vers",
          "proto",
          "local_lock",
          "timeo",
          "retrans",
          "rsize",
          "wsize",
          "actimeo",
          "acregmin",
          "acregmax",
          "acdirmin",
          "acdirmax",
          "lookupcache");

  /**
   * What changes locks and I/O on an NFS mount, under "nfs:" for v3 and v4 alike (so that {@code
   * compare} shows "nfs:vers 3 -> 4.2"): the version and transport, {@code local_lock} (locks kept
   * on the node), {@code lock} (off: {@code nolock}, v3's locks never reach the server), {@code
   * hard} (off: {@code soft}), the timeouts, transfer sizes and attribute caching. The addresses
   * (server, client, ports) are left out: they differ from node to node and are not settings.
   */
  static Map<String, String> nfsOptions(String options) {
    Map<String, String> out = new TreeMap<>();
    out.put("nfs:lock", "on");
    for (String opt : options.split(",")) {
      int eq = opt.indexOf('=');
      String key = eq < 0 ? opt : opt.substring(0, eq);
      if (eq > 0 && NFS_VALUES.contains(key)) {
        out.put("nfs:" + key, opt.substring(eq + 1));
      }
      switch (opt) {
        case "nolock" -> out.put("nfs:lock", "off");
        case "hard" -> out.put("nfs:hard", "on");
        case "soft", "softerr" -> out.put("nfs:hard", "off");
        case "noac" -> out.put("nfs:ac", "off");
        case "nocto" -> out.put("nfs:cto", "off");
        default -> {}
      }
    }
    return out;
  }
}
