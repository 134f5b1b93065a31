package io.tributary.worker;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Properties;
import org.postgresql.PGConnection;

/**
 * Reads an exported sink snapshot from the Tributary server over pgwire, piece by piece: {@code
 * COPY tributary_snapshot('id', vnode, 'after key', limit) TO STDOUT}. The worker never touches
 * the server's disk. One job thread.
 */
final class ExportedSnapshotReader implements AutoCloseable {
    private static final HexFormat HEX = HexFormat.of();

    private final Connection server;
    private final String snapshotId;
    /** The server answered a binary read of a view snapshot with 22023: it serves them only as text. */
    private boolean storedAsText;
    /** The server refused a view snapshot's piece over several vnodes: it serves one vnode per piece. */
    private boolean onePerVnode;

    /**
     * Connects to database {@code database} of the server at {@code address} (host:port), with its
     * password when it has one.
     *
     * @throws SQLException when the server cannot be reached or refuses the login (28P01)
     */
    ExportedSnapshotReader(String address, String password, String database, String snapshotId) throws SQLException {
        Properties props = new Properties();
        props.setProperty("user", "tributary_worker");
        if (password != null) {
            props.setProperty("password", password);
        }
        props.setProperty("ApplicationName", "tributary-worker");
        props.setProperty("connectTimeout", "10");
        this.server = DriverManager.getConnection("jdbc:postgresql://" + address + "/" + database, props);
        this.snapshotId = snapshotId;
    }

    /** One piece: its COPY text (rows of {@code SnapshotChunk}'s columns) and how many rows it has. */
    record Piece(byte[] text, int rows) {
        /** The primary key of the piece's last row (its last field, bytea text {@code \\x...}). */
        byte[] lastKey() {
            int end = text.length - 1; // the final newline
            int start = end;
            while (text[start - 1] != '\t') {
                start--;
            }
            // COPY text doubles the backslash of bytea's \x prefix
            return HEX.parseHex(
                    new String(text, start + 3, end - start - 3, java.nio.charset.StandardCharsets.US_ASCII));
        }
    }

    /**
     * One binary piece: {@code tuples} holds bytes {@code [from, to)} of the COPY data, whole tuples
     * only; {@code lastKey} is the last tuple's last field (its primary key), null without rows.
     */
    record BinaryPiece(byte[] data, int from, int to, int rows, byte[] lastKey) {
        /** The header's length: signature, flags, extension length (no extension). */
        static final int HEADER = 19;

        /** Walks the tuples of a whole binary COPY body (header, tuples, the -1 trailer). */
        static BinaryPiece of(byte[] data) {
            java.nio.ByteBuffer in = java.nio.ByteBuffer.wrap(data);
            in.position(HEADER);
            int rows = 0;
            int last = -1;
            while (true) {
                int at = in.position();
                short fields = in.getShort();
                if (fields < 0) {
                    byte[] key = null;
                    if (last >= 0) {
                        in.position(last);
                        short n = in.getShort();
                        for (int f = 0; f < n - 1; f++) {
                            int len = in.getInt();
                            in.position(in.position() + Math.max(0, len));
                        }
                        key = new byte[in.getInt()];
                        in.get(key);
                    }
                    return new BinaryPiece(data, HEADER, at, rows, key);
                }
                for (int f = 0; f < fields; f++) {
                    int len = in.getInt();
                    in.position(in.position() + Math.max(0, len));
                }
                last = at;
                rows++;
            }
        }
    }

    /** Up to {@code limit} rows of {@code vnode} after {@code afterKey} (null: from its start), in key order. */
    Piece read(int vnode, byte[] afterKey, int limit) throws SQLException {
        String sql = "COPY tributary_snapshot('" + snapshotId + "', " + vnode + ", '"
                + (afterKey == null ? "" : HEX.formatHex(afterKey)) + "', " + limit + ") TO STDOUT";
        byte[] text = copyOut(sql);
        int rows = 0;
        for (byte b : text) {
            if (b == '\n') {
                rows++;
            }
        }
        return new Piece(text, rows);
    }

    /**
     * Rows of a view job's snapshot ({@link #readStored}): each as the server stores it, {@code
     * {value, primary key}}, in vnode and key order; they cover vnodes up to {@code through}, all
     * of them whole when there are fewer rows than were asked for.
     */
    record StoredRows(List<byte[][]> rows, int through) {}

    /**
     * Up to {@code limit} rows of vnodes {@code vnode} through {@code lastVnode} of a view job's
     * snapshot, starting after {@code afterKey} in the first (null: from its start), each as the
     * server stores it (the two bytea columns the server sends for a {@code view:} snapshot id). A
     * server from before pieces spanned vnodes answers for {@code vnode} alone, and {@link
     * StoredRows#through} says so.
     */
    StoredRows readStored(int vnode, int lastVnode, byte[] afterKey, int limit) throws SQLException {
        String args = "COPY tributary_snapshot('" + snapshotId + "', " + vnode + ", '"
                + (afterKey == null ? "" : HEX.formatHex(afterKey)) + "', " + limit;
        if (!storedAsText && !onePerVnode && lastVnode > vnode) {
            try {
                return new StoredRows(
                        storedRows(copyOut(args + ", 'binary', " + lastVnode + ") TO STDOUT")), lastVnode);
            } catch (SQLException e) {
                if (!"42601".equals(e.getSQLState()) && !"22023".equals(e.getSQLState())) {
                    throw e;
                }
                // a server from before pieces spanned vnodes: one vnode per piece from now on
                onePerVnode = true;
            }
        }
        if (!storedAsText) {
            try {
                return new StoredRows(storedRows(copyOut(args + ", 'binary') TO STDOUT")), vnode);
            } catch (SQLException e) {
                if (!"22023".equals(e.getSQLState())) {
                    throw e;
                }
                // a server from before view snapshots were served in binary: text from now on
                storedAsText = true;
            }
        }
        byte[] text = read(vnode, afterKey, limit).text();
        List<byte[][]> rows = new ArrayList<>();
        int line = 0;
        for (int i = 0; i < text.length; i++) {
            if (text[i] == '\n') {
                int tab = line;
                while (text[tab] != '\t') {
                    tab++;
                }
                rows.add(new byte[][] {byteaText(text, line, tab), byteaText(text, tab + 1, i)});
                line = i + 1;
            }
        }
        return new StoredRows(rows, vnode);
    }

    /** The tuples of a binary COPY body whose fields are the stored value and the primary key. */
    private static List<byte[][]> storedRows(byte[] data) {
        java.nio.ByteBuffer in = java.nio.ByteBuffer.wrap(data);
        in.position(BinaryPiece.HEADER);
        List<byte[][]> rows = new ArrayList<>();
        for (short fields = in.getShort(); fields >= 0; fields = in.getShort()) {
            byte[][] row = new byte[fields][];
            for (int f = 0; f < fields; f++) {
                row[f] = new byte[in.getInt()];
                in.get(row[f]);
            }
            rows.add(row);
        }
        return rows;
    }

    /** A bytea field of COPY text, {@code \\x} and hex digits, in {@code text[from, to)}. */
    private static byte[] byteaText(byte[] text, int from, int to) {
        // COPY text doubles the backslash of bytea's \x prefix
        return HEX.parseHex(new String(text, from + 3, to - from - 3, java.nio.charset.StandardCharsets.US_ASCII));
    }

    /**
     * Like {@link #read}, in PostgreSQL's binary COPY format: the piece's tuples without the
     * format's header and trailer (so pieces concatenate into one body), with its last row's key.
     */
    BinaryPiece readBinary(int vnode, byte[] afterKey, int limit) throws SQLException {
        String sql = "COPY tributary_snapshot('" + snapshotId + "', " + vnode + ", '"
                + (afterKey == null ? "" : HEX.formatHex(afterKey)) + "', " + limit + ", 'binary') TO STDOUT";
        return BinaryPiece.of(copyOut(sql));
    }

    private byte[] copyOut(String sql) throws SQLException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            server.unwrap(PGConnection.class).getCopyAPI().copyOut(sql, out);
        } catch (IOException e) {
            throw new SQLException("reading the snapshot from the server failed: " + e.getMessage(), "08006", e);
        }
        return out.toByteArray();
    }

    @Override
    public void close() {
        try {
            server.close();
        } catch (SQLException ignored) {
            // nothing pending on a read-only connection
        }
    }
}
