package io.tributary.server.pgwire;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.tributary.common.types.PgTimeZone;
import io.tributary.server.session.ColumnDesc;
import java.util.List;

/**
 * Encoders for the server-to-client messages. Each returns a new buffer holding exactly one
 * message ({@code byte type, int32 length, body}); the caller writes it to the channel, which takes
 * ownership. Stateless; callable from any thread.
 */
final class PgBackendMessages {
    private static final int AUTH_OK = 0;
    private static final int AUTH_SASL = 10;
    private static final int AUTH_SASL_CONTINUE = 11;
    private static final int AUTH_SASL_FINAL = 12;

    private PgBackendMessages() {}

    static ByteBuf authenticationOk(ByteBufAllocator alloc) {
        return authentication(alloc, AUTH_OK, null);
    }

    /** AuthenticationSASL: int32 10, then mechanism names as C strings, then an empty string. */
    static ByteBuf authenticationSasl(ByteBufAllocator alloc, String mechanism) {
        ByteBuf buf = begin(alloc, 'R');
        buf.writeInt(AUTH_SASL);
        writeCString(buf, mechanism);
        buf.writeByte(0);
        return end(buf);
    }

    static ByteBuf authenticationSaslContinue(ByteBufAllocator alloc, byte[] data) {
        return authentication(alloc, AUTH_SASL_CONTINUE, data);
    }

    static ByteBuf authenticationSaslFinal(ByteBufAllocator alloc, byte[] data) {
        return authentication(alloc, AUTH_SASL_FINAL, data);
    }

    private static ByteBuf authentication(ByteBufAllocator alloc, int code, byte[] data) {
        ByteBuf buf = begin(alloc, 'R');
        buf.writeInt(code);
        if (data != null) {
            buf.writeBytes(data);
        }
        return end(buf);
    }

    static ByteBuf parameterStatus(ByteBufAllocator alloc, String name, String value) {
        ByteBuf buf = begin(alloc, 'S');
        writeCString(buf, name);
        writeCString(buf, value);
        return end(buf);
    }

    static ByteBuf backendKeyData(ByteBufAllocator alloc, int processId, int secretKey) {
        ByteBuf buf = begin(alloc, 'K');
        buf.writeInt(processId);
        buf.writeInt(secretKey);
        return end(buf);
    }

    static ByteBuf readyForQuery(ByteBufAllocator alloc, char transactionStatus) {
        ByteBuf buf = begin(alloc, 'Z');
        buf.writeByte(transactionStatus);
        return end(buf);
    }

    /**
     * RowDescription: int16 column count, then per column: name, int32 table OID, int16 attnum,
     * int32 type OID, int16 typlen, int32 typmod, int16 format code.
     *
     * @param formats per-column format codes, already expanded to one per column
     */
    static ByteBuf rowDescription(ByteBufAllocator alloc, List<ColumnDesc> columns, short[] formats) {
        ByteBuf buf = begin(alloc, 'T');
        buf.writeShort(columns.size());
        for (int i = 0; i < columns.size(); i++) {
            ColumnDesc c = columns.get(i);
            writeCString(buf, c.name());
            buf.writeInt(0);
            buf.writeShort(0);
            buf.writeInt(c.describedOid(formats[i]));
            buf.writeShort(c.type().kind().wireLength());
            buf.writeInt(c.type().typmod());
            buf.writeShort(formats[i]);
        }
        return end(buf);
    }

    /**
     * DataRow: int16 column count, then per column int32 length (-1 for NULL) and the value bytes;
     * text timestamptz values in {@code zone}, the session's.
     */
    static ByteBuf dataRow(
            ByteBufAllocator alloc, List<ColumnDesc> columns, short[] formats, Object[] row, PgTimeZone zone) {
        ByteBuf buf = begin(alloc, 'D');
        buf.writeShort(columns.size());
        for (int i = 0; i < columns.size(); i++) {
            PgValueCodec.writeValue(buf, columns.get(i).type(), row[i], formats[i], zone);
        }
        return end(buf);
    }

    /** ParameterDescription: int16 count, then one int32 type OID per parameter. */
    static ByteBuf parameterDescription(ByteBufAllocator alloc, int[] oids) {
        ByteBuf buf = begin(alloc, 't');
        buf.writeShort(oids.length);
        for (int oid : oids) {
            buf.writeInt(oid);
        }
        return end(buf);
    }

    static ByteBuf commandComplete(ByteBufAllocator alloc, String tag) {
        ByteBuf buf = begin(alloc, 'C');
        writeCString(buf, tag);
        return end(buf);
    }

    /** CopyInResponse: int8 overall format, int16 column count, int16 format per column (all text). */
    static ByteBuf copyInResponse(ByteBufAllocator alloc, int columnCount) {
        ByteBuf buf = begin(alloc, 'G');
        buf.writeByte(0);
        buf.writeShort(columnCount);
        for (int i = 0; i < columnCount; i++) {
            buf.writeShort(0);
        }
        return end(buf);
    }

    /** CopyOutResponse: int8 overall format, int16 column count, int16 format per column (all text). */
    static ByteBuf copyOutResponse(ByteBufAllocator alloc, int columnCount) {
        ByteBuf buf = begin(alloc, 'H');
        buf.writeByte(0);
        buf.writeShort(columnCount);
        for (int i = 0; i < columnCount; i++) {
            buf.writeShort(0);
        }
        return end(buf);
    }

    /** CopyOutResponse of the binary format: overall format 1, every column binary. */
    static ByteBuf copyOutResponseBinary(ByteBufAllocator alloc, int columnCount) {
        ByteBuf buf = begin(alloc, 'H');
        buf.writeByte(1);
        buf.writeShort(columnCount);
        for (int i = 0; i < columnCount; i++) {
            buf.writeShort(1);
        }
        return end(buf);
    }

    /** CopyData carrying {@code length} bytes of {@code data} from {@code offset}. */
    static ByteBuf copyData(ByteBufAllocator alloc, byte[] data, int offset, int length) {
        ByteBuf buf = begin(alloc, 'd');
        buf.writeBytes(data, offset, length);
        return end(buf);
    }

    /** CopyData: one line of COPY TO's output, UTF-8. */
    static ByteBuf copyData(ByteBufAllocator alloc, String line) {
        ByteBuf buf = begin(alloc, 'd');
        io.netty.buffer.ByteBufUtil.writeUtf8(buf, line);
        return end(buf);
    }

    /** CopyDone: the end of COPY TO's data. */
    static ByteBuf copyDone(ByteBufAllocator alloc) {
        return end(begin(alloc, 'c'));
    }

    static ByteBuf errorResponse(ByteBufAllocator alloc, PgErrorFields e) {
        return fields(alloc, 'E', e);
    }

    static ByteBuf noticeResponse(ByteBufAllocator alloc, PgErrorFields e) {
        return fields(alloc, 'N', e);
    }

    /** ErrorResponse/NoticeResponse: (byte field code, C string value)*, then a zero byte. */
    private static ByteBuf fields(ByteBufAllocator alloc, char type, PgErrorFields e) {
        ByteBuf buf = begin(alloc, type);
        field(buf, 'S', e.severity());
        field(buf, 'V', e.severity());
        field(buf, 'C', e.sqlState());
        field(buf, 'M', e.message());
        if (e.position() > 0) {
            field(buf, 'P', Integer.toString(e.position()));
        }
        field(buf, 'D', e.detail());
        field(buf, 'H', e.hint());
        if (e.object() != null) {
            field(buf, 's', e.object().schema());
            field(buf, 't', e.object().table());
            field(buf, 'c', e.object().column());
            field(buf, 'n', e.object().constraint());
        }
        buf.writeByte(0);
        return end(buf);
    }

    private static void field(ByteBuf buf, char code, String value) {
        if (value != null) {
            buf.writeByte(code);
            writeCString(buf, value);
        }
    }

    /** A message with no body: ParseComplete '1', BindComplete '2', CloseComplete '3', NoData 'n',
     * PortalSuspended 's', EmptyQueryResponse 'I'. */
    static ByteBuf empty(ByteBufAllocator alloc, char type) {
        return end(begin(alloc, type));
    }

    /** The single byte answering SSLRequest/GSSENCRequest: 'N' = not supported, continue in clear. */
    static ByteBuf encryptionRefused(ByteBufAllocator alloc) {
        return alloc.buffer(1).writeByte('N');
    }

    private static ByteBuf begin(ByteBufAllocator alloc, char type) {
        ByteBuf buf = alloc.buffer();
        buf.writeByte(type);
        buf.writeInt(0);
        return buf;
    }

    private static ByteBuf end(ByteBuf buf) {
        buf.setInt(1, buf.writerIndex() - 1);
        return buf;
    }

    static void writeCString(ByteBuf buf, String s) {
        ByteBufUtil.writeUtf8(buf, s);
        buf.writeByte(0);
    }
}
