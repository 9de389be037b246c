package io.vrmq.remoting.protocol;

/** How a frame's header is encoded: the high byte of the header word. */
public enum SerializeType {
    JSON((byte) 0),
    ROCKETMQ((byte) 1);

    private final byte code;

    SerializeType(byte code) {
        this.code = code;
    }

    public byte code() {
        return code;
    }

    /** @throws MalformedFrameException for a byte that names no header type: the frame cannot be trusted. */
    public static SerializeType ofCode(int code) {
        if (code == 0) {
            return JSON;
        }
        if (code == 1) {
            return ROCKETMQ;
        }
        throw new MalformedFrameException("unknown serialize type " + code);
    }
}
