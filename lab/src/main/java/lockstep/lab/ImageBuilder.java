package lockstep.lab;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import lockstep.coordinator.launch.SshClient;

/**
 * Builds the guest image with mmdebstrap (minbase, Debian's packages only) into the cache, once per
 * recipe key: {@code CACHE/image-KEY/}. Builds are serialised by a lock file in the cache.
 */
record ImageBuilder(Path cache, LabFiles files, Commands commands, LabLog log) {
  private static final Duration BUILD_TIMEOUT = Duration.ofMinutes(30);

  /** Sparse: only the tree's ~1 GiB is allocated; the rest is room for packages and logs. */
  static final String ROOT_SIZE = "4G";

  /**
   * The hooks given to mmdebstrap, with {@code {rootfs}} (deploy/lab/image/rootfs) and {@code
   * {stage}} (the built C programs and authorized_keys) to fill in; part of the recipe's key.
   */
  static List<String> steps() {
    return List.of(
        "--dpkgopt=path-exclude=/usr/share/doc/*",
        "--dpkgopt=path-exclude=/usr/share/man/*",
        "--dpkgopt=path-exclude=/usr/share/locale/*",
        "--dpkgopt=path-include=/usr/share/locale/locale.alias",
        // openjdk's postinst makes update-alternatives links into man1, excluded above
        "--essential-hook=mkdir -p \"$1/usr/share/man/man1\"",
        "--customize-hook=sync-in {rootfs} /",
        "--customize-hook=copy-in {stage}/lockbench {stage}/lock_files /usr/local/bin",
        "--customize-hook=mkdir -p -m 0700 \"$1/root/.ssh\"",
        "--customize-hook=copy-in {stage}/authorized_keys /root/.ssh",
        "--customize-hook=mkdir -p \"$1/mnt/gfs2\" \"$1/mnt/ocfs2\" \"$1/mnt/nfs\" \"$1/mnt/priv\""
            + " \"$1/dlm\" \"$1/var/log/corosync\"",
        // the host name comes from the kernel command line (systemd.hostname=)
        "--customize-hook=rm -f \"$1/etc/hostname\"",
        "--customize-hook=chroot \"$1\" systemctl enable systemd-networkd.service"
            + " systemd-network-generator.service ssh.service",
        "--customize-hook=chroot \"$1\" sh -c 'for u in corosync dlm o2cb ocfs2 ctdb nfs-server"
            + " nfs-blkmap rpcbind e2scrub_reap; do systemctl preset $u.service 2>/dev/null ||"
            + " true; done; systemctl preset e2scrub_all.timer 2>/dev/null || true'",
        // o2cb and ocfs2 are SysV scripts, which presets do not reach: at boot they only said
        // that the cluster was not enabled (the lab starts o2cb itself)
        "--customize-hook=chroot \"$1\" sh -c 'update-rc.d o2cb disable && update-rc.d ocfs2"
            + " disable' >/dev/null",
        // no graphics, EFI or foreign binaries in a guest: each unit took seconds of its CPU
        "--customize-hook=chroot \"$1\" systemctl mask modprobe@drm.service"
            + " modprobe@efi_pstore.service systemd-binfmt.service"
            + " proc-sys-fs-binfmt_misc.automount",
        // the initramfs of the drivers the guest boots from (etc/initramfs-tools/ in rootfs)
        "--customize-hook=chroot \"$1\" update-initramfs -u -k all");
  }

  /** The image for the recipe in the source tree: the cached one, or a new one built now. */
  GuestImage ensure() {
    Path key = sshKey();
    ImageRecipe recipe =
        ImageRecipe.read(files, readString(key.resolveSibling(key.getFileName() + ".pub")));
    String k = recipe.key();
    Path dir = cache.resolve("image-" + k);
    GuestImage image = new GuestImage(dir, k, key);
    if (complete(image)) {
      log.say("guest image " + dir + " (cached, recipe " + k + ")");
      return image;
    }
    try (FileChannel ch =
            FileChannel.open(
                cache.resolve("build.lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        FileLock lock = ch.lock()) {
      if (complete(image)) {
        return image;
      }
      build(recipe, image);
      removeOtherImages(dir);
      return image;
    } catch (IOException e) {
      throw new LabException("cannot lock " + cache.resolve("build.lock") + ": " + e.getMessage());
    }
  }

  static boolean complete(GuestImage image) {
    return Stream.of(image.root(), image.kernel(), image.initrd(), image.hostKey())
        .allMatch(Files::isRegularFile);
  }

  /** The lab's ssh key (root in every guest), made once per cache. */
  private Path sshKey() {
    Path key = cache.resolve("lab_ed25519");
    try {
      Files.createDirectories(cache);
    } catch (IOException e) {
      throw new LabException("cannot create the image cache " + cache + ": " + e.getMessage());
    }
    if (!Files.isRegularFile(key)) {
      commands
          .run(SshClient.keygen(key, "lockstep-lab"), Duration.ofSeconds(30))
          .orThrow("ssh-keygen");
    }
    return key;
  }

  private void build(ImageRecipe recipe, GuestImage image) throws IOException {
    Path work = cache.resolve("build-" + image.key());
    deleteTree(work);
    Path stage = Files.createDirectories(work.resolve("stage"));
    Path tree = work.resolve("tree");
    log.say(
        "building the guest image (recipe "
            + image.key()
            + ", "
            + recipe.packages().size()
            + " packages; mmdebstrap from the Debian archive, a few minutes) ...");
    double t0 = log.seconds();
    for (Path source : files.guestPrograms()) {
      String binary = source.getFileName().toString().replaceFirst("\\.c$", "");
      commands
          .run(
              List.of(
                  "gcc",
                  "-O2",
                  "-Wall",
                  "-static",
                  "-o",
                  stage.resolve(binary).toString(),
                  source.toString()),
              Duration.ofMinutes(2))
          .orThrow("gcc -static " + source);
    }
    Files.copy(
        image.sshKey().resolveSibling(image.sshKey().getFileName() + ".pub"),
        stage.resolve("authorized_keys"));
    commands
        .run(
            mmdebstrap(recipe, files.image().resolve("rootfs"), stage, tree, aptSources()),
            "",
            BUILD_TIMEOUT,
            null)
        .orThrow("mmdebstrap (log: " + log.file() + ")");
    double t1 = log.seconds();
    GuestImage out =
        new GuestImage(Files.createDirectories(work.resolve("out")), image.key(), image.sshKey());
    Files.copy(newest(tree.resolve("boot"), "vmlinuz-"), out.kernel());
    Files.copy(newest(tree.resolve("boot"), "initrd.img-"), out.initrd());
    Files.copy(tree.resolve("etc/ssh/ssh_host_ed25519_key.pub"), out.hostKey());
    commands
        .run(
            List.of(
                "mkfs.ext4",
                "-q",
                "-F",
                "-L",
                GuestImage.ROOT_LABEL,
                "-d",
                tree.toString(),
                out.root().toString(),
                ROOT_SIZE),
            Duration.ofMinutes(10))
        .orThrow("mkfs.ext4 -d");
    deleteTree(tree);
    deleteTree(stage);
    Files.move(out.dir(), image.dir());
    deleteTree(work);
    log.say(
        String.format(
            Locale.ROOT,
            "guest image built in %.0f s (mmdebstrap %.0f s): %s",
            log.seconds() - t0,
            t1 - t0,
            image.dir()));
  }

  static List<String> mmdebstrap(
      ImageRecipe recipe, Path rootfs, Path stage, Path tree, String sources) {
    List<String> cmd =
        new ArrayList<>(
            List.of(
                "mmdebstrap",
                "--variant=minbase",
                "--include=" + String.join(",", recipe.packages())));
    for (String s : steps()) {
      cmd.add(s.replace("{rootfs}", rootfs.toString()).replace("{stage}", stage.toString()));
    }
    cmd.addAll(List.of(ImageRecipe.SUITE, tree.toString(), sources));
    return cmd;
  }

  /** The host's own Debian sources (a deb822 file or sources.list), else Debian's mirror. */
  static String aptSources() {
    for (String f : List.of("/etc/apt/sources.list.d/debian.sources", "/etc/apt/sources.list")) {
      if (Files.isRegularFile(Path.of(f))) {
        return f;
      }
    }
    return "http://deb.debian.org/debian";
  }

  private void removeOtherImages(Path keep) throws IOException {
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(cache, "image-*")) {
      for (Path p : ds) {
        if (!p.equals(keep)) {
          log.say("removing the older image " + p);
          deleteTree(p);
        }
      }
    }
  }

  private static Path newest(Path dir, String prefix) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(p -> p.getFileName().toString().startsWith(prefix))
          .max(Comparator.comparing(p -> p.getFileName().toString()))
          .orElseThrow(() -> new LabException("the image has no " + dir + "/" + prefix + "*"));
    }
  }

  static void deleteTree(Path p) throws IOException {
    if (!Files.exists(p, LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    // rm -rf keeps to the tree (no links followed) and handles what Java's walk finds awkward
    Process rm = new ProcessBuilder("rm", "-rf", "--one-file-system", p.toString()).start();
    try {
      rm.waitFor();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static String readString(Path p) {
    try {
      return Files.readString(p);
    } catch (IOException e) {
      throw new LabException("cannot read " + p + ": " + e.getMessage());
    }
  }
}
