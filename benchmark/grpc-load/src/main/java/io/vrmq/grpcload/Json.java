package io.vrmq.grpcload;

/**
 * The few JSON helpers the tool's one-line result needs (no JSON library on its classpath). A copy of
 * benchmark/load's: that module's classpath carries the remoting client, this one only the SDK.
 */
final class Json {

    private Json() {
    }

    /** {@code text} as a JSON string literal, or {@code null}. One line: newlines become spaces. */
    static String quote(String text) {
        return text == null ? "null"
            : "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", " ").replace("\r", " ") + "\"";
    }
}
