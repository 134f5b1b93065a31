package io.tributary.server.pgwire;

/**
 * One complete client message as cut out of the byte stream by {@link PgFrameDecoder}.
 *
 * @param type the message type byte, or {@link #UNTYPED} for the startup-phase packets
 *     (StartupMessage, SSLRequest, GSSENCRequest, CancelRequest) which carry no type byte
 * @param body the bytes after the length field
 */
record PgFrame(char type, byte[] body) {
    static final char UNTYPED = '\0';
}
