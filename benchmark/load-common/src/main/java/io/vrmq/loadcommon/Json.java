package io.vrmq.loadcommon;

/** The few JSON helpers the tools' one-line results need (no JSON library on the load tools' classpath). */
public final class Json {

    private Json() {
    }

    /** {@code text} as a JSON string literal, or {@code null}. One line: newlines become spaces. */
    public static String quote(String text) {
        return text == null ? "null"
            : "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", " ").replace("\r", " ") + "\"";
    }
}
