package lockstep.lab;

import java.nio.file.Path;

/**
 * A built guest image in the cache: the root file system (raw ext4, the backing file of every
 * node's qcow2 overlay), the kernel and initrd it boots with ({@code -kernel}), the ssh host key
 * every guest has (for a strict known_hosts) and the lab's ssh key for root.
 */
public record GuestImage(Path dir, String key, Path sshKey) {
  public Path root() {
    return dir.resolve("root.img");
  }

  public Path kernel() {
    return dir.resolve("vmlinuz");
  }

  public Path initrd() {
    return dir.resolve("initrd.img");
  }

  public Path hostKey() {
    return dir.resolve("ssh_host_ed25519_key.pub");
  }

  /** The file system label of {@link #root()}: the kernel's root=LABEL=. */
  public static final String ROOT_LABEL = "lockstep-lab";
}
