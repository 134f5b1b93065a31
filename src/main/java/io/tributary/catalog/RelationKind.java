package io.tributary.catalog;

/** What a catalog relation is; PostgreSQL's words for it appear in error messages. */
public enum RelationKind {
    TABLE("table"),
    MATERIALIZED_VIEW("materialized view");

    private final String sqlName;

    RelationKind(String sqlName) {
        this.sqlName = sqlName;
    }

    /** "table" or "materialized view", as PostgreSQL's messages name it. */
    public String sqlName() {
        return sqlName;
    }
}
