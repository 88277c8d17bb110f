package lockstep.agent.env;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import lockstep.agent.fs.MountInfo;

/** The block device under a mount: its device number's sysfs entry, or the /dev source. */
final class BlockDevice {
  private BlockDevice() {}

  static String of(Path base, MountInfo mount) {
    String devNumber = deviceNumber(base, mount.mountPoint());
    if (!devNumber.isEmpty()) {
      for (String l :
          NodeEnvironment.lines(base.resolve("sys/dev/block/" + devNumber + "/uevent"))) {
        if (l.startsWith("DEVNAME=")) {
          return l.substring(8).trim();
        }
      }
    }
    if (mount.source().startsWith("/dev/")) {
      Path dev = base.resolve(mount.source().substring(1));
      try {
        return dev.toRealPath().getFileName().toString();
      } catch (IOException e) {
        return Path.of(mount.source()).getFileName().toString();
      }
    }
    return "";
  }

  /**
   * "major:minor" of the mount point's entry in mountinfo (the last one wins, as in the kernel's
   * view).
   */
  static String deviceNumber(Path base, String mountPoint) {
    String found = "";
    for (String l : NodeEnvironment.lines(base.resolve("proc/self/mountinfo"))) {
      String[] f = l.split(" ");
      if (f.length > 4 && MountInfo.unescape(f[4]).equals(mountPoint)) {
        found = f[2];
      }
    }
    return Files.isDirectory(base.resolve("sys/dev/block/" + found)) && !found.isEmpty()
        ? found
        : "";
  }
}
