package io.tributary.connector.postgres;

import io.tributary.common.SqlState;
import io.tributary.connector.ConnectorException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Decodes {@code pgoutput} protocol version 1 messages (text values; the database is UTF8, which
 * the source checks at creation). Stateless and thread-safe.
 */
final class PgOutputDecoder {
    private PgOutputDecoder() {}

    /** @throws ConnectorException XX000 for a message this decoder does not know */
    static PgOutputMessage decode(ByteBuffer in) {
        char tag = (char) in.get();
        return switch (tag) {
            case 'B' -> new PgOutputMessage.Begin(in.getLong(), in.getLong(), in.getInt());
            case 'C' -> {
                in.get(); // flags, unused
                yield new PgOutputMessage.Commit(in.getLong(), in.getLong(), in.getLong());
            }
            case 'R' -> relation(in);
            case 'I' -> {
                int relation = in.getInt();
                expect(in, 'N');
                yield new PgOutputMessage.Insert(relation, tuple(in));
            }
            case 'U' -> update(in);
            case 'D' -> {
                int relation = in.getInt();
                char kind = (char) in.get();
                yield new PgOutputMessage.Delete(relation, tuple(in), kind == 'K');
            }
            case 'T' -> {
                int n = in.getInt();
                in.get(); // options (CASCADE, RESTART IDENTITY)
                int[] relations = new int[n];
                for (int i = 0; i < n; i++) {
                    relations[i] = in.getInt();
                }
                yield new PgOutputMessage.Truncate(relations);
            }
            case 'O', 'Y', 'M' -> new PgOutputMessage.Ignored(tag);
            default ->
                throw new ConnectorException(
                        SqlState.INTERNAL_ERROR, "postgres-cdc: unknown pgoutput message '" + tag + "'");
        };
    }

    private static PgOutputMessage relation(ByteBuffer in) {
        int id = in.getInt();
        String namespace = string(in);
        String name = string(in);
        in.get(); // replica identity setting; the key flags below say the same per column
        int n = in.getShort();
        List<PgOutputMessage.RelationColumn> columns = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            boolean key = (in.get() & 1) != 0;
            String column = string(in);
            int type = in.getInt();
            in.getInt(); // type modifier
            columns.add(new PgOutputMessage.RelationColumn(column, type, key));
        }
        return new PgOutputMessage.Relation(id, namespace, name, List.copyOf(columns));
    }

    private static PgOutputMessage update(ByteBuffer in) {
        int relation = in.getInt();
        char kind = (char) in.get();
        if (kind == 'N') {
            return new PgOutputMessage.Update(relation, null, false, tuple(in));
        }
        PgOutputMessage.TupleData old = tuple(in);
        expect(in, 'N');
        return new PgOutputMessage.Update(relation, old, kind == 'K', tuple(in));
    }

    private static PgOutputMessage.TupleData tuple(ByteBuffer in) {
        int n = in.getShort();
        byte[] kinds = new byte[n];
        String[] texts = new String[n];
        for (int i = 0; i < n; i++) {
            kinds[i] = in.get();
            if (kinds[i] == PgOutputMessage.TupleData.TEXT) {
                byte[] bytes = new byte[in.getInt()];
                in.get(bytes);
                texts[i] = new String(bytes, StandardCharsets.UTF_8);
            } else if (kinds[i] != PgOutputMessage.TupleData.NULL && kinds[i] != PgOutputMessage.TupleData.UNCHANGED) {
                throw new ConnectorException(
                        SqlState.INTERNAL_ERROR,
                        "postgres-cdc: unexpected pgoutput column kind '" + (char) kinds[i] + "'");
            }
        }
        return new PgOutputMessage.TupleData(kinds, texts);
    }

    private static String string(ByteBuffer in) {
        int start = in.position();
        int end = start;
        while (in.get(end) != 0) {
            end++;
        }
        String s = new String(in.array(), in.arrayOffset() + start, end - start, StandardCharsets.UTF_8);
        in.position(end + 1);
        return s;
    }

    private static void expect(ByteBuffer in, char tag) {
        char got = (char) in.get();
        if (got != tag) {
            throw new ConnectorException(
                    SqlState.INTERNAL_ERROR,
                    "postgres-cdc: expected pgoutput tuple '" + tag + "' but got '" + got + "'");
        }
    }
}
