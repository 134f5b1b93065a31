package io.tributary.connector.postgres;

import io.tributary.common.types.DataType;
import io.tributary.common.types.TypeKind;
import java.util.EnumSet;
import java.util.Set;

/**
 * Which upstream column types a declared column can take. pgoutput and the snapshot both deliver
 * values as PostgreSQL text, which the declared type parses; a pair fits when every upstream value
 * parses without loss of meaning: the same type, a wider number, or any type into a text column
 * (its text form, e.g. for uuid or json). Stateless.
 */
final class TypeFit {
    private static final int BPCHAR_OID = 1042;

    private TypeFit() {}

    static boolean fits(DataType declared, int upstreamTypeOid) {
        if (declared.kind().isString()) {
            return true;
        }
        TypeKind upstream = upstreamTypeOid == BPCHAR_OID ? TypeKind.TEXT : TypeKind.ofOid(upstreamTypeOid);
        if (upstream == null) {
            return false;
        }
        return upstream == declared.kind() || widerThan(declared.kind()).contains(upstream);
    }

    private static Set<TypeKind> widerThan(TypeKind declared) {
        return switch (declared) {
            case INTEGER -> EnumSet.of(TypeKind.SMALLINT);
            case BIGINT -> EnumSet.of(TypeKind.SMALLINT, TypeKind.INTEGER);
            case NUMERIC -> EnumSet.of(TypeKind.SMALLINT, TypeKind.INTEGER, TypeKind.BIGINT);
            case DOUBLE -> EnumSet.of(TypeKind.SMALLINT, TypeKind.INTEGER, TypeKind.REAL);
            default -> EnumSet.noneOf(TypeKind.class);
        };
    }
}
