package io.tributary.catalog.pg;

import io.tributary.common.types.DataType;
import io.tributary.common.types.TypeKind;
import java.util.ArrayList;
import java.util.List;

/**
 * The types {@code pg_type} lists: the types columns can have ({@link TypeKind}) and the types
 * the catalog's own columns use, with PostgreSQL's OIDs, lengths and categories, plus an array
 * type for each. {@link #formatType} prints a type as PostgreSQL's {@code format_type} does.
 */
public final class PgTypes {
    /** One base type: its name, OID, array type's OID, typlen, typcategory. */
    record Base(String name, long oid, long arrayOid, int length, String category) {}

    static final List<Base> BASE = List.of(
            new Base("bool", 16, 1000, 1, "B"),
            new Base("bytea", 17, 1001, -1, "U"),
            new Base("char", 18, 1002, 1, "Z"),
            new Base("name", 19, 1003, 64, "S"),
            new Base("int8", 20, 1016, 8, "N"),
            new Base("int2", 21, 1005, 2, "N"),
            new Base("int2vector", 22, 1006, -1, "A"),
            new Base("int4", 23, 1007, 4, "N"),
            new Base("regproc", 24, 1008, 4, "N"),
            new Base("text", 25, 1009, -1, "S"),
            new Base("oid", 26, 1028, 4, "N"),
            new Base("xid", 28, 1011, 4, "U"),
            new Base("oidvector", 30, 1013, -1, "A"),
            new Base("pg_node_tree", 194, 0, -1, "Z"),
            new Base("float4", 700, 1021, 4, "N"),
            new Base("float8", 701, 1022, 8, "N"),
            new Base("aclitem", 1033, 1034, 12, "U"),
            new Base("bpchar", 1042, 1014, -1, "S"),
            new Base("varchar", 1043, 1015, -1, "S"),
            new Base("date", 1082, 1182, 4, "D"),
            new Base("time", 1083, 1183, 8, "D"),
            new Base("timestamp", 1114, 1115, 8, "D"),
            new Base("timestamptz", 1184, 1185, 8, "D"),
            new Base("interval", 1186, 1187, 16, "T"),
            new Base("numeric", 1700, 1231, -1, "N"),
            new Base("regclass", 2205, 2210, 4, "N"),
            new Base("regtype", 2206, 2211, 4, "N"),
            new Base("json", 114, 199, -1, "U"),
            new Base("uuid", 2950, 2951, 16, "U"),
            new Base("jsonb", 3802, 3807, -1, "U"),
            new Base("pg_lsn", 3220, 3221, 8, "U"),
            // the pseudo-type of functions that return nothing (pg_sleep)
            new Base("void", 2278, 0, 4, "P"));

    private PgTypes() {}

    /** The OID of a type named as in {@code pg_type.typname}, {@code name[]} for its array; 0 if unknown. */
    static int oidOf(String pgType) {
        boolean array = pgType.endsWith("[]");
        String element = array ? pgType.substring(0, pgType.length() - 2) : pgType;
        for (Base b : BASE) {
            if (b.name.equals(element)) {
                return (int) (array ? b.arrayOid : b.oid);
            }
        }
        return 0;
    }

    /** typname of the base type with this OID, or null. */
    static String nameOf(long oid) {
        for (Base b : BASE) {
            if (b.oid == oid) {
                return b.name;
            }
        }
        return null;
    }

    /** The name of the array type with this OID, {@code _int4} for 1007; null when it is no array type. */
    static String arrayNameOf(long oid) {
        for (Base b : BASE) {
            if (b.arrayOid == oid) {
                return "_" + b.name;
            }
        }
        return null;
    }

    /** The rows of {@code pg_type}: each base type, then each array type ({@code _name}). */
    static List<Object[]> rows() {
        List<Object[]> rows = new ArrayList<>();
        for (Base b : BASE) {
            boolean collatable = b.category.equals("S") && !b.name.equals("name");
            rows.add(row(
                    b.oid,
                    b.name,
                    b.length,
                    b.category.equals("P") ? "p" : "b",
                    b.category,
                    0L,
                    b.arrayOid,
                    collatable ? PgOids.DEFAULT_COLLATION : (b.name.equals("name") ? PgOids.C_COLLATION : 0L)));
        }
        for (Base b : BASE) {
            if (b.arrayOid != 0) {
                rows.add(row(b.arrayOid, "_" + b.name, -1, "b", "A", b.oid, 0L, 0L));
            }
        }
        return rows;
    }

    private static Object[] row(
            long oid, String name, int length, String typtype, String category, long elem, long array, long collation) {
        boolean byValue = length == 1 || length == 2 || length == 4 || length == 8;
        return new Object[] {
            oid,
            name,
            PgOids.PG_CATALOG_NAMESPACE,
            PgOids.SUPERUSER,
            (short) length,
            byValue,
            typtype,
            category,
            true,
            ",",
            0L,
            elem,
            array,
            // drivers tell arrays by typinput = 'array_in'::regproc; other input functions are not listed
            elem != 0 ? PgOids.ARRAY_IN : 0L,
            false,
            0L,
            -1,
            0,
            collation,
            null,
            null,
            // numeric is stored compressible in line ('m'), other variable-length types may move out ('x')
            length >= 0 ? "p" : name.equals("numeric") ? "m" : "x"
        };
    }

    /** {@code pg_type}'s columns, in the order {@link #rows()} fills them. */
    static final String COLUMNS = "oid oid, typname name, typnamespace oid, typowner oid, typlen int2, "
            + "typbyval bool, typtype char, typcategory char, typisdefined bool, typdelim char, typrelid oid, "
            + "typelem oid, typarray oid, typinput regproc, typnotnull bool, typbasetype oid, typtypmod int4, "
            + "typndims int4, typcollation oid, typdefault text, typacl aclitem[], typstorage char";

    /**
     * PostgreSQL's {@code format_type(oid, typmod)}: the SQL name of a type with its modifier
     * ({@code numeric(10,2)}, {@code character varying(20)}), {@code ???} for an unknown OID, {@code -}
     * for OID 0 and null for a null OID.
     */
    public static String formatType(Long oid, Integer typmod) {
        if (oid == null) {
            return null;
        }
        if (oid == 0) {
            return "-"; // InvalidOid: no type, e.g. a function that pg_proc lists without its result type
        }
        int mod = typmod == null ? -1 : typmod;
        TypeKind kind = TypeKind.ofOid(oid.intValue());
        if (kind != null) {
            if (kind == TypeKind.NUMERIC && mod >= 4) {
                int m = mod - 4;
                return "numeric(" + (m >> 16) + "," + (m & 0xffff) + ")";
            }
            if (kind == TypeKind.VARCHAR && mod >= 4) {
                return "character varying(" + (mod - 4) + ")";
            }
            if (kind == TypeKind.BPCHAR) {
                // PostgreSQL's own quirk: a given typmod without a length names the type itself
                return mod >= 4 ? "character(" + (mod - 4) + ")" : typmod == null ? "character" : "bpchar";
            }
            if ((kind == TypeKind.TIME || kind == TypeKind.TIMESTAMP || kind == TypeKind.TIMESTAMPTZ) && mod >= 0) {
                return DataType.withFractionDigits(kind, mod).sqlName();
            }
            return kind.pgName();
        }
        String name = nameOf(oid);
        if (name != null) {
            return name.equals("char") ? "\"char\"" : name;
        }
        for (Base b : BASE) {
            if (b.arrayOid == oid) {
                // an array column's typmod is its element's: varchar(10)[] is character varying(10)[]
                return formatType(b.oid, mod) + "[]";
            }
        }
        return "???";
    }
}
