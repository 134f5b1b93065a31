package io.tributary.catalog.pg;

import java.util.ArrayList;
import java.util.List;

/**
 * A relation as {@code pg_class} shows it: a user table or materialized view, or a relation of
 * {@code pg_catalog} / {@code information_schema} itself.
 *
 * @param relkind {@code r} table, {@code m} materialized view, {@code v} view
 * @param attributes the visible columns, attnum = index + 1
 * @param primaryKey attnums of the declared primary key, empty when there is none
 * @param definition a view's query text, null for tables
 * @param checks a table's CHECK constraints, empty for every other relation
 * @param secondaryIndexes a table's UNIQUE constraints and {@code CREATE INDEX} indexes (the
 *     primary key's index is not among them: see {@link #indexes()})
 * @param foreignKeys a table's FOREIGN KEY constraints (those it holds as the referencing table)
 */
public record PgRelation(
        long oid,
        long namespace,
        String schema,
        String name,
        String relkind,
        List<Attribute> attributes,
        short[] primaryKey,
        String definition,
        List<io.tributary.catalog.CheckDef> checks,
        List<Index> secondaryIndexes,
        List<PgForeignKey> foreignKeys) {
    /** A relation without CHECK constraints, secondary indexes or foreign keys. */
    public PgRelation(
            long oid,
            long namespace,
            String schema,
            String name,
            String relkind,
            List<Attribute> attributes,
            short[] primaryKey,
            String definition) {
        this(
                oid,
                namespace,
                schema,
                name,
                relkind,
                attributes,
                primaryKey,
                definition,
                List.of(),
                List.of(),
                List.of());
    }

    /** This relation with another query text. */
    PgRelation withDefinition(String query) {
        return new PgRelation(
                oid,
                namespace,
                schema,
                name,
                relkind,
                attributes,
                primaryKey,
                query,
                checks,
                secondaryIndexes,
                foreignKeys);
    }

    /**
     * An index as {@code pg_class} (relkind {@code i}) and {@code pg_index} show it.
     *
     * @param oid the index relation's OID
     * @param constraintOid the OID of its {@code pg_constraint} row; meaningful only with a
     *     constraint type
     * @param key the indexed columns' attnums in the table, in key order
     * @param constraintType {@code p} (primary key), {@code u} (UNIQUE constraint) or empty for an
     *     index made by {@code CREATE INDEX}, which has no {@code pg_constraint} row
     * @param storageId the store id of its entries, or -1 for the primary key, whose entries are
     *     the table's rows
     */
    public record Index(
            String name,
            long oid,
            long constraintOid,
            short[] key,
            boolean unique,
            String constraintType,
            int storageId) {
        public boolean primary() {
            return constraintType.equals("p");
        }

        public boolean hasConstraint() {
            return !constraintType.isEmpty();
        }
    }

    /** The relation's indexes: the primary key's first, if any, then {@link #secondaryIndexes}. */
    public List<Index> indexes() {
        if (!hasPrimaryKey()) {
            return secondaryIndexes;
        }
        List<Index> out = new ArrayList<>(secondaryIndexes.size() + 1);
        out.add(new Index(primaryKeyName(), indexOid(), constraintOid(), primaryKey, true, "p", -1));
        out.addAll(secondaryIndexes);
        return out;
    }

    /**
     * A column as {@code pg_attribute} shows it.
     *
     * @param defaultText its default as {@code pg_get_expr} deparses it ({@code pg_attrdef}), null
     *     without one
     * @param identity {@code attidentity}: {@code a} (ALWAYS), {@code d} (BY DEFAULT) or empty
     */
    public record Attribute(
            String name,
            long typeOid,
            int typmod,
            int typeLength,
            boolean notNull,
            String defaultText,
            String identity,
            String generated) {
        /** A column without default or identity. */
        public Attribute(String name, long typeOid, int typmod, int typeLength, boolean notNull) {
            this(name, typeOid, typmod, typeLength, notNull, null, "");
        }

        /** A column that is not generated ({@code attgenerated} empty). */
        public Attribute(
                String name,
                long typeOid,
                int typmod,
                int typeLength,
                boolean notNull,
                String defaultText,
                String identity) {
            this(name, typeOid, typmod, typeLength, notNull, defaultText, identity, "");
        }
    }

    public boolean hasPrimaryKey() {
        return primaryKey.length > 0;
    }

    /** PostgreSQL's name for a primary key's index and constraint: {@code <table>_pkey}. */
    public String primaryKeyName() {
        return name + "_pkey";
    }

    /** The OID of the primary key's index; meaningful only with {@link #hasPrimaryKey()}. */
    public long indexOid() {
        return oid + 1;
    }

    /** The OID of CHECK constraint {@code index} of {@link #checks}. */
    public long checkOid(int index) {
        return PgOids.checkConstraint(oid, index);
    }

    /** The attnum of the visible column {@code column}, or 0. */
    public short attnum(String column) {
        for (int i = 0; i < attributes.size(); i++) {
            if (attributes.get(i).name().equals(column)) {
                return (short) (i + 1);
            }
        }
        return 0;
    }

    /** The OID of the primary key's constraint; meaningful only with {@link #hasPrimaryKey()}. */
    public long constraintOid() {
        return oid + 2;
    }
}
