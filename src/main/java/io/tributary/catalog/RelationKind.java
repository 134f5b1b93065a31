package io.tributary.catalog;

/** What a catalog relation is; PostgreSQL's words for it appear in error messages. */
public enum RelationKind {
    TABLE("table"),
    MATERIALIZED_VIEW("materialized view"),
    /**
     * {@code CREATE SOURCE}: a connector's rows that are not stored; only views read them, each from
     * its creation on.
     */
    SOURCE("source");

    private final String sqlName;

    RelationKind(String sqlName) {
        this.sqlName = sqlName;
    }

    /** "table", "materialized view" or "source", as PostgreSQL's messages name it. */
    public String sqlName() {
        return sqlName;
    }
}
