package io.tributary.common.types;

/**
 * A value of PostgreSQL's {@code json}: the input text exactly as given, validated but never
 * reformatted, as PostgreSQL keeps it. Its own class (not {@code String}) so that Calcite's
 * generated code and the type mapping tell it apart from text and from {@link PgJsonb}.
 */
public record PgJson(String text) {
    @Override
    public String toString() {
        return text;
    }
}
