package io.tributary.catalog.pg;

import java.util.List;
import java.util.stream.Collectors;

/**
 * A FOREIGN KEY constraint as {@code pg_constraint} (contype {@code f}) and {@code
 * pg_get_constraintdef} show it. Immutable.
 *
 * @param oid its {@code pg_constraint} OID
 * @param parentOid {@code confrelid}, the referenced table's OID
 * @param conkey the referencing columns' attnums, in the constraint's order
 * @param confkey the referenced columns' attnums, paired with {@code conkey}
 * @param onUpdate {@code confupdtype}
 * @param onDelete {@code confdeltype}
 */
public record PgForeignKey(
        long oid,
        String name,
        long parentOid,
        String parentSchema,
        String parentName,
        List<String> columns,
        List<String> parentColumns,
        List<Short> conkey,
        List<Short> confkey,
        char onUpdate,
        char onDelete) {
    /**
     * {@code FOREIGN KEY (a) REFERENCES p(id) ON DELETE RESTRICT}, as {@code pg_get_constraintdef}
     * gives it; the referenced table qualified by its schema when {@code qualify}.
     */
    public String definition(boolean qualify) {
        StringBuilder out = new StringBuilder("FOREIGN KEY (")
                .append(columns.stream().map(PgDefinitions::quoteIdent).collect(Collectors.joining(", ")))
                .append(") REFERENCES ");
        if (qualify) {
            out.append(PgDefinitions.quoteIdent(parentSchema)).append('.');
        }
        out.append(PgDefinitions.quoteIdent(parentName))
                .append('(')
                .append(parentColumns.stream().map(PgDefinitions::quoteIdent).collect(Collectors.joining(", ")))
                .append(')');
        if (onUpdate != io.tributary.catalog.ForeignKeyDef.NO_ACTION) {
            out.append(" ON UPDATE ").append(io.tributary.catalog.ForeignKeyDef.actionText(onUpdate));
        }
        if (onDelete != io.tributary.catalog.ForeignKeyDef.NO_ACTION) {
            out.append(" ON DELETE ").append(io.tributary.catalog.ForeignKeyDef.actionText(onDelete));
        }
        return out.toString();
    }
}
