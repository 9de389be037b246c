package io.vrmq.remoting.protocol;

import io.netty.buffer.ByteBuf;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.internal.buffer.BufferInternal;

import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One decoded frame: a request or a response of RocketMQ's remoting protocol.
 *
 * <p>Immutable value; safe to hand between threads. {@code extFields} is the custom header (every value a string on
 * the wire), {@code body} the bytes after the header, or {@code null} when the frame had none.
 *
 * <p>An answer may own its body ({@link #responseWithOwnedBody}): a reference-counted buffer (pooled memory) that the
 * {@code RemotingConnection} writing the answer hands to the socket, which releases it once written; an answer that
 * is not written is released by whoever drops it ({@link #releaseOwnedBody}). Its derived commands
 * ({@link #withOpaque} and the like) share that one buffer: only one of them may be written or released.
 */
public final class RemotingCommand {
    /** flag bit 0: this command answers a request with the same opaque. */
    public static final int RESPONSE_FLAG = 1;
    /** flag bit 1: the sender expects no answer. */
    public static final int ONEWAY_FLAG = 1 << 1;
    /** The version we announce: MQVersion ordinal of 5.5.0. Clients store a broker's version from responses. */
    public static final int OUR_VERSION = 513;

    private final int code;
    private final LanguageCode language;
    private final int version;
    private final int opaque;
    private final int flag;
    private final String remark;
    private final Map<String, String> extFields;
    private final Buffer body;
    private final SerializeType serializeType;
    /** The buffer behind {@code body} when this command owns it, else null. */
    private final ByteBuf ownedBody;

    public RemotingCommand(int code, LanguageCode language, int version, int opaque, int flag, String remark,
                           Map<String, String> extFields, Buffer body, SerializeType serializeType) {
        this(code, language, version, opaque, flag, remark, extFields, body, serializeType, null);
    }

    private RemotingCommand(int code, LanguageCode language, int version, int opaque, int flag, String remark,
                            Map<String, String> extFields, Buffer body, SerializeType serializeType,
                            ByteBuf ownedBody) {
        this.code = code;
        this.language = Objects.requireNonNull(language, "language");
        this.version = version;
        this.opaque = opaque;
        this.flag = flag;
        this.remark = remark;
        this.extFields = extFields == null ? Map.of()
            : extFields instanceof JsonHeaderFieldTable ? extFields : Collections.unmodifiableMap(extFields);
        this.body = body == null || body.length() == 0 ? null : body;
        this.serializeType = Objects.requireNonNull(serializeType, "serializeType");
        this.ownedBody = ownedBody;
    }

    /** A request to be sent; the opaque is assigned by the connection that sends it. */
    public static RemotingCommand request(int code, Map<String, String> extFields, Buffer body) {
        return new RemotingCommand(code, LanguageCode.JAVA, OUR_VERSION, 0, 0, null, extFields, body,
            SerializeType.JSON);
    }

    /** A request without header fields or body. */
    public static RemotingCommand request(int code) {
        return request(code, null, null);
    }

    /** The answer to {@code request}: same opaque and header type, the response flag set. */
    public static RemotingCommand response(RemotingCommand request, int code, String remark,
                                           Map<String, String> extFields, Buffer body) {
        return new RemotingCommand(code, LanguageCode.JAVA, OUR_VERSION, request.opaque, RESPONSE_FLAG, remark,
            extFields, body, request.serializeType);
    }

    /**
     * The answer to {@code request} with a body it owns: {@code ownedBody} (readable bytes, at least one) passes to
     * the answer, whose connection releases it once written (see the class comment). On failure here it is released.
     */
    public static RemotingCommand responseWithOwnedBody(RemotingCommand request, int code, String remark,
                                                        Map<String, String> extFields, ByteBuf ownedBody) {
        try {
            if (!ownedBody.isReadable()) {
                throw new IllegalArgumentException("an owned body needs at least one byte");
            }
            return new RemotingCommand(code, LanguageCode.JAVA, OUR_VERSION, request.opaque, RESPONSE_FLAG, remark,
                extFields, BufferInternal.buffer(ownedBody), request.serializeType, ownedBody);
        } catch (RuntimeException e) {
            ownedBody.release();
            throw e;
        }
    }

    public static RemotingCommand success(RemotingCommand request, Buffer body) {
        return response(request, ResponseCode.SUCCESS, null, null, body);
    }

    public static RemotingCommand success(RemotingCommand request, Map<String, String> extFields, Buffer body) {
        return response(request, ResponseCode.SUCCESS, null, extFields, body);
    }

    public static RemotingCommand failure(RemotingCommand request, int code, String remark) {
        return response(request, code, remark, null, null);
    }

    public RemotingCommand withOpaque(int newOpaque) {
        return new RemotingCommand(code, language, version, newOpaque, flag, remark, extFields, body, serializeType,
            ownedBody);
    }

    public RemotingCommand asOneway() {
        return new RemotingCommand(code, language, version, opaque, flag | ONEWAY_FLAG, remark, extFields, body,
            serializeType, ownedBody);
    }

    /** The same command with other header fields (a signed copy of an outgoing request). */
    public RemotingCommand withExtFields(Map<String, String> fields) {
        return new RemotingCommand(code, language, version, opaque, flag, remark, fields, body, serializeType,
            ownedBody);
    }

    public RemotingCommand withSerializeType(SerializeType type) {
        return new RemotingCommand(code, language, version, opaque, flag, remark, extFields, body, type, ownedBody);
    }

    public int code() {
        return code;
    }

    public LanguageCode language() {
        return language;
    }

    public int version() {
        return version;
    }

    public int opaque() {
        return opaque;
    }

    public int flag() {
        return flag;
    }

    public boolean isResponse() {
        return (flag & RESPONSE_FLAG) != 0;
    }

    public boolean isOneway() {
        return (flag & ONEWAY_FLAG) != 0;
    }

    public String remark() {
        return remark;
    }

    public Map<String, String> extFields() {
        return extFields;
    }

    /** A header field, or {@code null} when absent. */
    public String ext(String name) {
        return extFields.get(name);
    }

    /** Typed access to the header fields, with errors that name the field. */
    public HeaderFields header() {
        return new HeaderFields(code, extFields);
    }

    public boolean hasBody() {
        return body != null;
    }

    public Buffer body() {
        return body;
    }

    public SerializeType serializeType() {
        return serializeType;
    }

    /** The reference-counted buffer behind the body when this command owns it (see the class comment), else null. */
    public ByteBuf ownedBody() {
        return ownedBody;
    }

    /** Releases the owned body of a command that will not be written; nothing when it owns none. */
    public void releaseOwnedBody() {
        if (ownedBody != null) {
            ownedBody.release();
        }
    }

    /** A mutable copy of the header fields, for building a derived command. */
    public Map<String, String> extFieldsCopy() {
        return new HashMap<>(extFields);
    }

    @Override
    public String toString() {
        return "RemotingCommand[code=" + code + ", language=" + language + ", version=" + version + ", opaque="
            + opaque + ", flag=" + flag + ", remark=" + remark + ", extFields=" + extFields + ", bodyBytes="
            + (body == null ? 0 : body.length()) + ", serializeType=" + serializeType + "]";
    }
}
