package lockstep.lab;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** What the host needs for the lab: root, and programs by the Debian package that has them. */
final class HostCheck {
  /** Program -> Debian package, for booting a lab. */
  static final Map<String, String> RUN =
      programs(
          "qemu-system-x86_64", "qemu-system-x86",
          "qemu-storage-daemon", "qemu-system-common",
          "qemu-img", "qemu-utils",
          "ip", "iproute2",
          "ssh", "openssh-client",
          "ssh-keygen", "openssh-client",
          "ansible-playbook", "ansible",
          "java", "openjdk-17-jre-headless");

  /** Program -> Debian package, for building the image. */
  static final Map<String, String> BUILD =
      programs(
          "mmdebstrap", "mmdebstrap",
          "mkfs.ext4", "e2fsprogs",
          "gcc", "gcc",
          "ssh-keygen", "openssh-client");

  private HostCheck() {}

  private static Map<String, String> programs(String... pairs) {
    Map<String, String> m = new LinkedHashMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      m.put(pairs[i], pairs[i + 1]);
    }
    return m;
  }

  static void root(String command) {
    if (!"root".equals(System.getProperty("user.name"))) {
      throw new LabException(
          "lockstep lab " + command + " must run as root (network namespaces, QEMU, mounts)");
    }
  }

  /** Throws one line naming every missing package (apt-get install ...). */
  static void programs(Map<String, String> needed, List<Path> path) {
    List<String> missing = new ArrayList<>();
    for (var e : needed.entrySet()) {
      boolean found = path.stream().anyMatch(d -> Files.isExecutable(d.resolve(e.getKey())));
      if (!found && !missing.contains(e.getValue())) {
        missing.add(e.getValue());
      }
    }
    if (needed == BUILD && !Files.isRegularFile(Path.of("/usr/include/stdio.h"))) {
      missing.add("libc6-dev");
    }
    if (!missing.isEmpty()) {
      throw new LabException("missing on this host: apt-get install " + String.join(" ", missing));
    }
  }

  static List<Path> systemPath() {
    List<Path> out = new ArrayList<>();
    String p = System.getenv().getOrDefault("PATH", "/usr/bin:/bin");
    for (String d : (p + ":/usr/sbin:/sbin").split(":")) {
      if (!d.isEmpty()) {
        out.add(Path.of(d));
      }
    }
    return out;
  }
}
