package io.vrmq.remoting.protocol;

/** The sender's language, as RocketMQ numbers them; the binary header carries the number, JSON the name. */
public enum LanguageCode {
    JAVA(0), CPP(1), DOTNET(2), PYTHON(3), DELPHI(4), ERLANG(5), RUBY(6), OTHER(7), HTTP(8), GO(9), PHP(10),
    OMS(11), RUST(12), NODE_JS(13);

    private static final LanguageCode[] BY_CODE = new LanguageCode[14];

    static {
        for (LanguageCode language : values()) {
            BY_CODE[language.code] = language;
        }
    }

    private final int code;

    LanguageCode(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }

    /** Unknown numbers map to OTHER: a newer client's language is no reason to drop its request. */
    public static LanguageCode ofCode(int code) {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : OTHER;
    }

    /** Unknown names map to OTHER, for the same reason as {@link #ofCode}. */
    public static LanguageCode ofName(String name) {
        for (LanguageCode language : values()) {
            if (language.name().equals(name)) {
                return language;
            }
        }
        return OTHER;
    }
}
