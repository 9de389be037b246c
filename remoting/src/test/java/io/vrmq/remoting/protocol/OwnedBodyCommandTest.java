package io.vrmq.remoting.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.vertx.core.buffer.Buffer;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** An answer that owns its body: the frame is the same as with a plain body, and the ownership follows the copies. */
class OwnedBodyCommandTest {
    private static final RemotingCommand REQUEST = new RemotingCommand(RequestCode.PULL_MESSAGE, LanguageCode.JAVA,
        513, 77, 0, null, Map.of(), null, SerializeType.JSON);

    @Test
    void anOwnedBodyEncodesAsThePlainBodyWithTheSameBytes() {
        ByteBuf owned = Unpooled.directBuffer().writeBytes("stored records".getBytes());
        RemotingCommand answer = RemotingCommand.responseWithOwnedBody(REQUEST, ResponseCode.SUCCESS, null,
            Map.of("nextBeginOffset", "32"), owned);
        RemotingCommand plain = RemotingCommand.response(REQUEST, ResponseCode.SUCCESS, null,
            Map.of("nextBeginOffset", "32"), Buffer.buffer("stored records"));

        assertEquals(CommandCodec.encode(plain), CommandCodec.encode(answer));
        assertEquals(1, owned.refCnt(), "encoding leaves the body to whoever writes it");
        answer.releaseOwnedBody();
        assertEquals(0, owned.refCnt());
    }

    @Test
    void theCommandsDerivedForWritingShareTheOneOwnedBody() {
        ByteBuf owned = Unpooled.directBuffer().writeByte(1);
        RemotingCommand answer = RemotingCommand.responseWithOwnedBody(REQUEST, ResponseCode.SUCCESS, null, null,
            owned);

        assertSame(owned, answer.withOpaque(5).ownedBody());
        assertSame(owned, answer.withSerializeType(SerializeType.ROCKETMQ).ownedBody());
        assertNull(RemotingCommand.success(REQUEST, Buffer.buffer("x")).ownedBody());
        answer.releaseOwnedBody();
    }

    @Test
    void anEmptyOwnedBodyIsRefusedAndReleased() {
        ByteBuf empty = Unpooled.directBuffer();

        assertThrows(IllegalArgumentException.class, () -> RemotingCommand.responseWithOwnedBody(REQUEST,
            ResponseCode.SUCCESS, null, null, empty));
        assertEquals(0, empty.refCnt());
    }
}
