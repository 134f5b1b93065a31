package io.tributary.catalog;

import java.util.List;

/**
 * A table's FOREIGN KEY constraint as the catalog stores it, in the referencing (child) table's
 * record. Immutable. MATCH SIMPLE: a row with NULL in any of {@code columns} references nothing.
 *
 * @param name the constraint's name, as given or as PostgreSQL chooses it ({@code
 *     <table>_<columns>_fkey}); null only between parsing and the DDL that names it
 * @param columns the referencing columns, in the constraint's order
 * @param parent the referenced table's catalog key ({@link Catalog#key}); its name as written
 *     until the DDL resolves it
 * @param parentColumns the referenced columns, paired with {@code columns}; empty between parsing
 *     and the DDL when the statement named none (the parent's primary key)
 * @param onUpdate {@code pg_constraint.confupdtype}: {@code a} NO ACTION, {@code r} RESTRICT,
 *     {@code c} CASCADE, {@code n} SET NULL, {@code d} SET DEFAULT
 * @param onDelete {@code pg_constraint.confdeltype}, the same letters
 */
public record ForeignKeyDef(
        String name, List<String> columns, String parent, List<String> parentColumns, char onUpdate, char onDelete) {
    public static final char NO_ACTION = 'a';
    public static final char RESTRICT = 'r';
    public static final char CASCADE = 'c';
    public static final char SET_NULL = 'n';
    public static final char SET_DEFAULT = 'd';

    public ForeignKeyDef {
        columns = List.copyOf(columns);
        parentColumns = parentColumns == null ? List.of() : List.copyOf(parentColumns);
    }

    /** The same constraint named {@code newName}, referencing {@code newParentColumns} of catalog key {@code newParent}. */
    public ForeignKeyDef resolved(String newName, String newParent, List<String> newParentColumns) {
        return new ForeignKeyDef(newName, columns, newParent, newParentColumns, onUpdate, onDelete);
    }

    /** The action's words as PostgreSQL's {@code pg_get_constraintdef} writes them. */
    public static String actionText(char action) {
        return switch (action) {
            case RESTRICT -> "RESTRICT";
            case CASCADE -> "CASCADE";
            case SET_NULL -> "SET NULL";
            case SET_DEFAULT -> "SET DEFAULT";
            default -> "NO ACTION";
        };
    }
}
