package lockstep.common;

/** Routes java.util.logging (gRPC, Netty) into Log4j 2; must run before anything logs. */
public final class Logging {
  private Logging() {}

  public static void init(String configResource) {
    System.setProperty("java.util.logging.manager", "org.apache.logging.log4j.jul.LogManager");
    if (System.getProperty("log4j2.configurationFile") == null) {
      System.setProperty("log4j2.configurationFile", configResource);
    }
  }
}
