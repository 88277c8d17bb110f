package lockstep.common;

import java.net.InetAddress;
import java.net.UnknownHostException;

/** Whether a listener's host is loopback: what may serve without authentication. */
public final class Loopback {
  private Loopback() {}

  /** True for a loopback address or a name that resolves to one; false if it does not resolve. */
  public static boolean is(String host) {
    try {
      return InetAddress.getByName(host).isLoopbackAddress();
    } catch (UnknownHostException e) {
      return false;
    }
  }
}
