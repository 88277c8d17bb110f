package lockstep.coordinator.launch;

/**
 * What {@link RemoteScripts#probe} found on a node: whether the agent jar and the unpacked tarball
 * are there already, and the version of its {@code java} (empty: none).
 */
record RemoteProbe(boolean jarPresent, boolean bundlePresent, String javaVersion) {
  /** The oldest Java the agent jar runs on. */
  static final int JAVA_NEEDED = 17;

  static RemoteProbe parse(String out) {
    boolean jar = false;
    boolean bundle = false;
    String java = "";
    for (String line : out.lines().toList()) {
      String[] w = line.strip().split(" ", 2);
      switch (w[0]) {
        case "JAR" -> jar = w.length > 1 && w[1].equals("PRESENT");
        case "BUNDLE" -> bundle = w.length > 1 && w[1].equals("PRESENT");
        case "JAVA" -> java = w.length > 1 && !w[1].equals("none") ? w[1].strip() : "";
        default -> {}
      }
    }
    return new RemoteProbe(jar, bundle, java);
  }

  /** The Java feature version (1.8 is 8, 17.0.15 is 17); 0 when there is no java or no number. */
  int javaFeature() {
    String[] parts = javaVersion.split("[.+-]");
    try {
      int first = Integer.parseInt(parts[0]);
      return first == 1 && parts.length > 1 ? Integer.parseInt(parts[1]) : first;
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  boolean javaSuitable() {
    return javaFeature() >= JAVA_NEEDED;
  }

  /** Why the node's Java does not do, for a message: "its java (PATH) is Java 11". */
  String whyNoJava(String java) {
    return javaVersion.isEmpty()
        ? "no '" + java + "' runs there"
        : "'" + java + "' there is Java " + javaVersion + " (the agent needs " + JAVA_NEEDED + "+)";
  }
}
