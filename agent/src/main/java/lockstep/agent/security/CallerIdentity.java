package lockstep.agent.security;

import io.grpc.Context;

/**
 * Who is calling: the coordinator certificate's subject (mTLS), else the shared token's
 * identity, else (loopback or --insecure) the random owner id each coordinator sends.
 * {@link AuthInterceptor} puts it in the call's {@link Context}.
 */
public final class CallerIdentity {
    static final Context.Key<String> KEY = Context.key("lockstep-caller");
    static final String ANONYMOUS = "anonymous";

    private CallerIdentity() {
    }

    /** The caller of the current call ("cert:CN=...", "token:...", "owner:..." or "anonymous"). */
    public static String current() {
        String id = KEY.get();
        return id == null ? ANONYMOUS : id;
    }
}
