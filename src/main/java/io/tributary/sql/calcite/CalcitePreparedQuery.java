package io.tributary.sql.calcite;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.common.types.DataType;
import io.tributary.common.types.FractionalSeconds;
import io.tributary.common.types.PgTextFormat;
import io.tributary.common.types.TypeKind;
import io.tributary.common.types.Values;
import io.tributary.sql.PreparedQuery;
import io.tributary.sql.QueryCursor;
import io.tributary.sql.ResultColumn;
import java.sql.ParameterMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** A query compiled by Calcite once and executed many times (JDBC prepared statement underneath). */
final class CalcitePreparedQuery implements PreparedQuery {
    private final PreparedStatement statement;
    private final String sql;
    private final int[] order;
    private final List<ResultColumn> columns;
    private final List<DataType> paramTypes;
    private final DataType[] markerTypes;
    /** Per result column: whether it is an {@link Int2VectorType}, printed {@code 1 2}. */
    private final boolean[] vectors;
    /** Per result column: its Calcite type name when it is an array (sent as text), else null. */
    private final String[] arrays;
    /** Per result column: whether it is a row value, sent as its record text ({@link PgRecordText}). */
    private final boolean[] records;

    /**
     * @param labels PostgreSQL's names for unnamed select items, or null to keep Calcite's
     * @param typeOids {@link ResultTypeOids#of} of the statement's select items, or null
     * @param modifierCasts {@link ModifierCasts#of} of the statement's select items, or null
     * @param passedOids {@link PassedTypeOids#of} of the statement's tree, or null
     * @param passed {@link PassedColumns} of the prepared statement, or null
     * @param catalogTypes the OIDs of catalog columns read as they are
     * @param declaredTypes the declared types of user relations' columns read as they are
     */
    CalcitePreparedQuery(
            PreparedStatement statement,
            String sql,
            int[] order,
            int parameterCount,
            List<String> labels,
            List<Integer> typeOids,
            List<Boolean> modifierCasts,
            List<Integer> passedOids,
            List<PassedColumns.Passed> passed,
            CatalogResultTypes catalogTypes,
            DeclaredColumnTypes declaredTypes)
            throws SQLException {
        this.statement = statement;
        this.sql = sql;
        this.order = order;
        ResultSetMetaData md = statement.getMetaData();
        List<ResultColumn> cols = new ArrayList<>();
        this.vectors = new boolean[md.getColumnCount()];
        this.arrays = new String[md.getColumnCount()];
        this.records = new boolean[md.getColumnCount()];
        for (int i = 1; i <= md.getColumnCount(); i++) {
            vectors[i - 1] = Int2VectorType.NAME.equals(md.getColumnTypeName(i));
            String label = md.getColumnLabel(i);
            String postgres = ColumnLabels.expand(labels, i - 1, md.getColumnCount());
            if (postgres != null && label.startsWith("EXPR$")) {
                label = postgres;
            }
            // PostgreSQL's interval is Calcite's OTHER (PgIntervals), as are json and jsonb (PgJsonTypes)
            DataType arrayType = null;
            if (TextArrayType.NAME.equals(md.getColumnTypeName(i))) {
                arrayType = DataType.array(DataType.TEXT); // regexp_match's
            } else if (!vectors[i - 1] && PgArrayText.isArray(md.getColumnTypeName(i))) {
                // an array of a kind Tributary holds is a list of its values; others reach clients as text
                arrayType = TypeMapping.fromJdbc(md.getColumnTypeName(i), 0, 0);
                if (arrayType.kind() != TypeKind.ARRAY) {
                    arrays[i - 1] = md.getColumnTypeName(i);
                }
            }
            DataType type = arrayType != null
                    ? arrayType
                    : md.getColumnType(i) == java.sql.Types.OTHER
                                    && !"UUID".equals(md.getColumnTypeName(i))
                                    && PgJsonTypes.kind(md.getColumnTypeName(i)) == null
                            ? DataType.INTERVAL
                            : TypeMapping.fromJdbc(md.getColumnTypeName(i), md.getPrecision(i), md.getScale(i));
            // PostgreSQL keeps the modifier of a column read as it is and of a cast to a type with one
            // (numeric(5,2), character(3), timestamp(3)); Calcite's string constants are CHAR too, and
            // its arithmetic is DECIMAL(p,s) where PostgreSQL's is numeric
            // ... also through derived tables and plain views (PassedColumns)
            PassedColumns.Passed through =
                    passed == null || passed.size() != md.getColumnCount() ? null : passed.get(i - 1);
            boolean keepsModifier = isTableColumn(md, i)
                    || ModifierCasts.isCast(modifierCasts, labels, i - 1, md.getColumnCount())
                    || through != null && through.modifierCast();
            int written = ResultTypeOids.of(typeOids, labels, i - 1, md.getColumnCount());
            // name columns of plain views and derived tables read as they are (PassedTypeOids)
            int writtenOrPassed = written != 0 || passedOids == null || passedOids.size() != md.getColumnCount()
                    ? written
                    : passedOids.get(i - 1);
            if (keepsModifier && "CHAR".equals(md.getColumnTypeName(i))) {
                type = DataType.bpchar(md.getPrecision(i));
            } else if (keepsModifier && type.kind() == TypeKind.NUMERIC) {
                type = TypeMapping.numeric(md.getPrecision(i), md.getScale(i));
            } else if (keepsModifier && isTime(type.kind())) {
                type = timePrecision(md, i, type, declaredTypes);
            }
            if (type.kind() == TypeKind.VARCHAR && !isTableColumn(md, i) && ResultTypeOids.isName(writtenOrPassed)) {
                // Calcite types current_role varchar(2000); PostgreSQL's name is unbounded text
                type = DataType.TEXT;
            }
            records[i - 1] = md.getColumnType(i) == java.sql.Types.STRUCT;
            // an oid column of pg_catalog is held as bigint, and described as oid when read as it is
            int describedOid = type.kind() != TypeKind.TEXT && type.kind() != TypeKind.BIGINT
                    ? 0
                    : isTableColumn(md, i)
                            ? catalogTypes.oid(md.getSchemaName(i), md.getTableName(i), md.getColumnName(i))
                            : type.kind() == TypeKind.TEXT ? writtenOrPassed : 0;
            cols.add(
                    records[i - 1]
                            ? new ResultColumn(label, DataType.TEXT, ResultColumn.RECORD_OID)
                            : describedOid != 0
                                    ? new ResultColumn(label, type, describedOid)
                                    : new ResultColumn(label, type));
        }
        this.columns = List.copyOf(cols);
        ParameterMetaData pmd = statement.getParameterMetaData();
        this.markerTypes = new DataType[order.length];
        DataType[] byNumber = new DataType[parameterCount];
        for (int k = 0; k < order.length; k++) {
            markerTypes[k] = TypeMapping.fromJdbc(pmd.getParameterTypeName(k + 1), 0, 0);
            if (byNumber[order[k] - 1] == null) {
                byNumber[order[k] - 1] = markerTypes[k];
            }
        }
        for (int i = 0; i < byNumber.length; i++) {
            if (byNumber[i] == null) {
                byNumber[i] = DataType.TEXT;
            }
        }
        this.paramTypes = List.copyOf(Arrays.asList(byNumber));
    }

    private static boolean isTime(TypeKind kind) {
        return kind == TypeKind.TIME || kind == TypeKind.TIMESTAMP || kind == TypeKind.TIMESTAMPTZ;
    }

    /**
     * A time result column's type with its precision, as PostgreSQL's typmod of it: a column read
     * as it is keeps its declared precision (Calcite's type has none of it), a cast to {@code
     * timestamp(p)} Calcite's precision of the cast, at most 6 as PostgreSQL's.
     */
    private static DataType timePrecision(ResultSetMetaData md, int i, DataType type, DeclaredColumnTypes declared)
            throws SQLException {
        if (isTableColumn(md, i)) {
            DataType column = declared.of(md.getSchemaName(i), md.getTableName(i), md.getColumnName(i));
            return column != null && column.kind() == type.kind() ? column : type;
        }
        return DataType.withFractionDigits(type.kind(), Math.min(md.getPrecision(i), FractionalSeconds.MAX_PRECISION));
    }

    /** True when Calcite traces result column {@code i} to a table's column, not an expression. */
    private static boolean isTableColumn(ResultSetMetaData md, int i) throws SQLException {
        String table = md.getTableName(i);
        String column = md.getColumnName(i);
        return table != null && !table.isEmpty() && column != null && !column.isEmpty();
    }

    @Override
    public List<ResultColumn> columns() {
        return columns;
    }

    @Override
    public List<DataType> paramTypes() {
        return paramTypes;
    }

    @Override
    public QueryCursor open(List<Object> params) {
        if (params.size() < paramTypes.size()) {
            throw new TributaryException(
                    SqlState.PROTOCOL_VIOLATION,
                    "bind message supplies " + params.size() + " parameters, but prepared statement requires "
                            + paramTypes.size());
        }
        try {
            for (int k = 0; k < order.length; k++) {
                bind(k + 1, markerTypes[k], params.get(order[k] - 1));
            }
            return new Cursor(statement.executeQuery());
        } catch (SQLException | RuntimeException | LinkageError e) {
            throw SqlErrors.translate(e, sql);
        }
    }

    private void bind(int index, DataType type, Object value) throws SQLException {
        if (value == null) {
            statement.setNull(index, java.sql.Types.NULL);
            return;
        }
        if (value instanceof List<?> array && type.kind() != TypeKind.ARRAY) {
            // an array parameter where Calcite inferred no array type (tags && $1): its array text,
            // which the array operators read
            statement.setString(index, arrayText(array));
            return;
        }
        Object v = value instanceof String s && !type.kind().isString() ? PgTextFormat.parse(type, s) : value;
        if (type.kind().isNumeric()) {
            v = Values.assign(v, null, type);
        }
        switch (type.kind()) {
            // Calcite's own counts (epoch days, milliseconds), which its generated code takes as they
            // are: java.sql values would go through the hybrid calendar, which lacks 1582-10-05..14,
            // and a java.sql.Time wraps PostgreSQL's 24:00:00 to 00:00:00
            case DATE -> statement.setObject(index, (Integer) v);
            case TIME -> statement.setObject(index, (int) ((Long) v / 1000));
            // microseconds, which MicrosecondPlans has the generated code take as they are
            case TIMESTAMP, TIMESTAMPTZ -> statement.setObject(index, (Long) v);
            case BYTEA -> statement.setBytes(index, (byte[]) v);
            case VARCHAR, TEXT -> statement.setString(index, v instanceof String s ? s : String.valueOf(v));
            default -> statement.setObject(index, v);
        }
    }

    /** PostgreSQL's text of an array parameter of text, number or boolean elements. */
    private static String arrayText(List<?> array) {
        StringBuilder sb = new StringBuilder("{");
        for (int i = 0; i < array.size(); i++) {
            Object e = array.get(i);
            if (i > 0) {
                sb.append(',');
            }
            if (e == null) {
                sb.append("NULL");
            } else if (e instanceof String || e instanceof Number) {
                io.tributary.common.types.PgArrayLiteral.appendElement(sb, e.toString());
            } else if (e instanceof Boolean b) {
                sb.append(b ? 't' : 'f');
            } else {
                throw TributaryException.notSupported(
                        "an array parameter of " + e.getClass().getSimpleName() + " elements here");
            }
        }
        return sb.append('}').toString();
    }

    @Override
    public void close() {
        try {
            statement.close();
        } catch (SQLException e) {
            throw SqlErrors.translate(e, sql);
        }
    }

    private final class Cursor implements QueryCursor {
        private final ResultSet rs;

        Cursor(ResultSet rs) {
            this.rs = rs;
        }

        @Override
        public Object[] next() {
            try {
                if (!rs.next()) {
                    return null;
                }
                Object[] row = new Object[columns.size()];
                for (int i = 0; i < row.length; i++) {
                    row[i] = vectors[i]
                            ? PgArrayText.vector(rs.getArray(i + 1))
                            : arrays[i] != null
                                    ? array(i)
                                    : records[i]
                                            ? PgRecordText.format(rs.getObject(i + 1))
                                            : TypeMapping.read(
                                                    rs, i + 1, columns.get(i).type());
                }
                return row;
            } catch (SQLException | RuntimeException | LinkageError e) {
                throw SqlErrors.translate(e, sql);
            }
        }

        /** Column {@code i} (0-based) of an array type: PostgreSQL's text of its value, or text already made. */
        private String array(int i) throws SQLException {
            Object value = rs.getObject(i + 1);
            return value == null
                    ? null
                    : value instanceof java.sql.Array a ? PgArrayText.format(a, arrays[i]) : value.toString();
        }

        @Override
        public void close() {
            try {
                rs.close();
            } catch (SQLException e) {
                throw SqlErrors.translate(e, sql);
            }
        }
    }
}
