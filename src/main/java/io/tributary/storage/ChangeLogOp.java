package io.tributary.storage;

/**
 * What happened to one key in one epoch, as its change log records it: the key appeared, went
 * away, or changed its row. The codes are part of the on-disk format.
 */
public enum ChangeLogOp {
    /** No row before the epoch, a row after it: only a new row. */
    INSERT(1),
    /** A row before the epoch, none after it: only an old row. */
    DELETE(2),
    /** A row before and a different row after: both. */
    UPDATE(3);

    private final int code;

    ChangeLogOp(int code) {
        this.code = code;
    }

    int code() {
        return code;
    }

    static ChangeLogOp ofCode(int code) {
        for (ChangeLogOp op : values()) {
            if (op.code == code) {
                return op;
            }
        }
        throw new IllegalArgumentException("not a change log op code: " + code);
    }

    /** Whether a change of this kind has an old row. */
    public boolean hasOldRow() {
        return this != INSERT;
    }

    /** Whether a change of this kind has a new row. */
    public boolean hasNewRow() {
        return this != DELETE;
    }
}
