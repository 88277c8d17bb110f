package lockstep.agent.security;

import io.grpc.Context;
import java.nio.charset.StandardCharsets;

/**
 * Who is calling: the coordinator certificate's subject (mTLS), else the shared token's identity,
 * else (loopback or --insecure) the random owner id each coordinator sends. {@link AuthInterceptor}
 * puts it in the call's {@link Context}.
 */
public final class CallerIdentity {
  static final Context.Key<String> KEY = Context.key("lockstep-caller");
  static final String ANONYMOUS = "anonymous";
  static final String OWNER_PREFIX = "owner:";

  private CallerIdentity() {}

  /**
   * An identity as it may be shown to other callers: an owner id is a bearer secret on loopback
   * (whoever sends it owns its runs), so it is shown as "owner:" + a fingerprint.
   */
  public static String shown(String identity) {
    if (identity.startsWith(OWNER_PREFIX)) {
      return OWNER_PREFIX
          + AuthInterceptor.fingerprint(
              identity.substring(OWNER_PREFIX.length()).getBytes(StandardCharsets.UTF_8));
    }
    return identity;
  }

  /** The caller of the current call ("cert:CN=...", "token:...", "owner:..." or "anonymous"). */
  public static String current() {
    String id = KEY.get();
    return id == null ? ANONYMOUS : id;
  }
}
