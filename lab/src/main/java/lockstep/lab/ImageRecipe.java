package lockstep.lab;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;

/**
 * What the guest image is made of: the Debian packages (deploy/lab/image/packages.txt), the files
 * baked in (deploy/lab/image/rootfs/, the C lock programs, the lab's ssh key) and the build steps.
 * Its {@link #key()} names the cached image: any change to these gives a new key, so a new image.
 */
public final class ImageRecipe {
  /** Bump when the build steps change in a way the inputs below do not show. */
  static final int VERSION = 1;

  static final String SUITE = "bookworm";

  private final List<String> packages;
  private final List<Input> inputs;

  /** One file that goes into the image, by the path it is known under in the recipe. */
  record Input(String name, byte[] content) {}

  ImageRecipe(List<String> packages, List<Input> inputs) {
    this.packages = List.copyOf(packages);
    this.inputs = List.copyOf(inputs);
  }

  /** Reads the recipe from the source tree; {@code authorizedKey} is the lab key's public half. */
  static ImageRecipe read(LabFiles files, String authorizedKey) {
    List<String> packages = parsePackages(readString(files.image().resolve("packages.txt")));
    List<Input> inputs = new ArrayList<>();
    Path rootfs = files.image().resolve("rootfs");
    try (Stream<Path> walk = Files.walk(rootfs)) {
      for (Path p : walk.filter(Files::isRegularFile).sorted().toList()) {
        inputs.add(new Input("rootfs/" + rootfs.relativize(p), readBytes(p)));
      }
    } catch (IOException e) {
      throw new LabException("cannot read " + rootfs + ": " + e.getMessage());
    }
    for (Path source : files.guestPrograms()) {
      inputs.add(new Input(source.getFileName().toString(), readBytes(source)));
    }
    inputs.add(new Input("authorized_keys", authorizedKey.getBytes(StandardCharsets.UTF_8)));
    return new ImageRecipe(packages, inputs);
  }

  /** The package names of packages.txt: one a line, '#' comments and blank lines ignored. */
  static List<String> parsePackages(String text) {
    List<String> out = new ArrayList<>();
    for (String line : text.lines().toList()) {
      String l = line.replaceFirst("#.*", "").strip();
      if (l.isEmpty()) {
        continue;
      }
      if (!l.matches("[a-z0-9][a-z0-9+.-]+")) {
        throw new LabException("deploy/lab/image/packages.txt: '" + l + "' is not a package name");
      }
      out.add(l);
    }
    if (out.isEmpty()) {
      throw new LabException("deploy/lab/image/packages.txt lists no package");
    }
    return out;
  }

  List<String> packages() {
    return packages;
  }

  /** 16 hex digits of SHA-256 over the version, suite, packages, build steps and every input. */
  String key() {
    try {
      MessageDigest md = MessageDigest.getInstance("SHA-256");
      md.update(("v" + VERSION + "\n" + SUITE + "\n").getBytes(StandardCharsets.UTF_8));
      for (String p : packages) {
        md.update((p + "\n").getBytes(StandardCharsets.UTF_8));
      }
      for (String step : ImageBuilder.steps()) {
        md.update((step + "\n").getBytes(StandardCharsets.UTF_8));
      }
      for (Input in : inputs) {
        md.update((in.name() + "\n" + in.content().length + "\n").getBytes(StandardCharsets.UTF_8));
        md.update(in.content());
      }
      return HexFormat.of().formatHex(md.digest()).substring(0, 16);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static byte[] readBytes(Path p) {
    try {
      return Files.readAllBytes(p);
    } catch (IOException e) {
      throw new LabException("cannot read " + p + ": " + e.getMessage());
    }
  }

  private static String readString(Path p) {
    try {
      return Files.readString(p);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
