package io.tributary.storage;

import io.tributary.common.codec.ByteWriter;
import java.util.Arrays;

/**
 * The net change of one key in one epoch, the value of a change-log entry: an op with the rows
 * it needs (old for DELETE, new for INSERT, both for UPDATE), each the relation's encoded row.
 * Encoded as {@code [op code][row]} for INSERT and DELETE and {@code [op code][varint old length]
 * [old row][new row]} for UPDATE. Immutable; the row arrays are not copied and must not be
 * modified.
 */
public final class LoggedChange {
    private final ChangeLogOp op;
    private final byte[] oldRow;
    private final byte[] newRow;

    /**
     * @throws IllegalArgumentException when a row the op needs is null or one it excludes is not
     */
    public LoggedChange(ChangeLogOp op, byte[] oldRow, byte[] newRow) {
        if (op.hasOldRow() != (oldRow != null) || op.hasNewRow() != (newRow != null)) {
            throw new IllegalArgumentException(op + " needs " + (op.hasOldRow() ? "an" : "no") + " old row and "
                    + (op.hasNewRow() ? "a" : "no") + " new row");
        }
        this.op = op;
        this.oldRow = oldRow;
        this.newRow = newRow;
    }

    public ChangeLogOp op() {
        return op;
    }

    /** The row before the epoch; null for an INSERT. */
    public byte[] oldRow() {
        return oldRow;
    }

    /** The row after the epoch; null for a DELETE. */
    public byte[] newRow() {
        return newRow;
    }

    public byte[] encode() {
        ByteWriter out =
                new ByteWriter(1 + 5 + (oldRow == null ? 0 : oldRow.length) + (newRow == null ? 0 : newRow.length));
        out.put(op.code());
        if (op == ChangeLogOp.UPDATE) {
            out.putVarInt(oldRow.length);
        }
        if (oldRow != null) {
            out.putBytes(oldRow);
        }
        if (newRow != null) {
            out.putBytes(newRow);
        }
        return out.toByteArray();
    }

    public static LoggedChange decode(byte[] value) {
        ChangeLogOp op = ChangeLogOp.ofCode(value[0]);
        return switch (op) {
            case INSERT -> new LoggedChange(op, null, Arrays.copyOfRange(value, 1, value.length));
            case DELETE -> new LoggedChange(op, Arrays.copyOfRange(value, 1, value.length), null);
            case UPDATE -> {
                int at = 1;
                int length = 0;
                for (int shift = 0; ; shift += 7) {
                    int b = value[at++] & 0xff;
                    length |= (b & 0x7f) << shift;
                    if (b < 0x80) {
                        break;
                    }
                }
                yield new LoggedChange(
                        op,
                        Arrays.copyOfRange(value, at, at + length),
                        Arrays.copyOfRange(value, at + length, value.length));
            }
        };
    }

    /**
     * The net change of this change followed by {@code later} to the same key in the same epoch,
     * or null when they cancel out (an insert deleted again, an update back to the old row).
     *
     * @throws IllegalStateException when {@code later} does not start from the row this change
     *     leaves (an insert of a key this change left present, a delete or update of one it left
     *     absent, or a different old row): the caller's changes are out of step with the table
     */
    public LoggedChange then(LoggedChange later) {
        if (op.hasNewRow() != later.op.hasOldRow() || op.hasNewRow() && !Arrays.equals(newRow, later.oldRow)) {
            throw new IllegalStateException("change log out of step: " + later.op + " after " + op);
        }
        return net(oldRow, later.newRow);
    }

    /**
     * The change from {@code oldRow} to {@code newRow} (either may be null for absent), or null
     * when there is none.
     */
    public static LoggedChange net(byte[] oldRow, byte[] newRow) {
        if (oldRow == null) {
            return newRow == null ? null : new LoggedChange(ChangeLogOp.INSERT, null, newRow);
        }
        if (newRow == null) {
            return new LoggedChange(ChangeLogOp.DELETE, oldRow, null);
        }
        return Arrays.equals(oldRow, newRow) ? null : new LoggedChange(ChangeLogOp.UPDATE, oldRow, newRow);
    }

    @Override
    public String toString() {
        return op + "(" + (oldRow == null ? "" : Arrays.toString(oldRow)) + (op == ChangeLogOp.UPDATE ? " -> " : "")
                + (newRow == null ? "" : Arrays.toString(newRow)) + ")";
    }
}
