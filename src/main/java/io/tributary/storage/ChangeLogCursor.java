package io.tributary.storage;

/** A forward cursor over change-log entries of one vnode of one epoch, in pk order. One thread; close once. */
public final class ChangeLogCursor implements AutoCloseable {
    private final KvIterator it;
    private byte[] pk;
    private LoggedChange change;

    ChangeLogCursor(KvIterator it) {
        this.it = it;
    }

    /** Advances to the next entry; false when there is none. Must be called before the first read. */
    public boolean next() {
        if (!it.next()) {
            pk = null;
            change = null;
            return false;
        }
        byte[] key = it.key();
        pk = ChangeLogKeys.pkOf(key);
        change = LoggedChange.decode(it.value());
        return true;
    }

    /** The memcomparable primary key of the current entry. */
    public byte[] pk() {
        return pk;
    }

    /** The net change of the current entry's key. */
    public LoggedChange change() {
        return change;
    }

    @Override
    public void close() {
        it.close();
    }
}
