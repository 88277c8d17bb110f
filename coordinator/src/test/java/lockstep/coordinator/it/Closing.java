package lockstep.coordinator.it;

/** Tearing down a test class's fixtures, some of which may never have been set up. */
final class Closing {
  private Closing() {}

  /** Closes each resource that is not null, in order; the first failure stops the rest. */
  static void closeEach(AutoCloseable... resources) throws Exception {
    for (AutoCloseable r : resources) {
      if (r != null) {
        r.close();
      }
    }
  }
}
