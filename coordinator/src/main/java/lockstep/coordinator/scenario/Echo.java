package lockstep.coordinator.scenario;

/**
 * User text shown back in a message: control characters (ANSI escapes, newlines, NUL) are written
 * as visible escapes so a scenario cannot drive the terminal or forge lines, and long values are
 * shortened to their start and end.
 */
public final class Echo {
  /** Longest value echoed whole. */
  public static final int MAX_SHOWN = 120;

  private Echo() {}

  /** The value escaped and, past {@link #MAX_SHOWN} characters, shortened with its length. */
  public static String value(String text) {
    if (text == null) {
      return "null";
    }
    if (text.length() > MAX_SHOWN) {
      int keep = MAX_SHOWN / 2 - 10;
      return escaped(text.substring(0, keep))
          + "…("
          + text.length()
          + " characters)…"
          + escaped(text.substring(text.length() - keep));
    }
    return escaped(text);
  }

  /** Control characters as \n, \t, \r or \xNN / \\uNNNN; everything else unchanged. */
  public static String escaped(String text) {
    StringBuilder b = null;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      boolean control = Character.isISOControl(c) || c == '\u2028' || c == '\u2029';
      if (!control) {
        if (b != null) {
          b.append(c);
        }
        continue;
      }
      if (b == null) {
        b = new StringBuilder(text.length() + 16).append(text, 0, i);
      }
      switch (c) {
        case '\n' -> b.append("\\n");
        case '\t' -> b.append("\\t");
        case '\r' -> b.append("\\r");
        default ->
            b.append(
                c < 0x100 ? String.format("\\x%02x", (int) c) : String.format("\\u%04x", (int) c));
      }
    }
    return b == null ? text : b.toString();
  }
}
