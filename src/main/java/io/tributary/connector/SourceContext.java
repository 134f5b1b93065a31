package io.tributary.connector;

import java.util.List;
import java.util.Map;

/**
 * What a connector is opened with.
 *
 * @param tableId the id of the table the source feeds; stable for the table's life
 * @param tableName the table's name, for messages
 * @param columns the table's columns in order (without hidden columns); rows a reader returns
 *     have exactly these, as canonical values of their types
 * @param primaryKey indexes into {@code columns} of the primary key, empty when the table has none
 * @param options the {@code WITH (...)} options except {@code connector}, names lower-cased
 * @param format the {@code FORMAT ... ENCODE ...} clause, or null when the statement had none
 * @param identity what {@link Source#identity()} returned when the source was first opened, or
 *     null at the first open (CREATE TABLE)
 */
public record SourceContext(
        int tableId,
        String tableName,
        List<SourceColumn> columns,
        int[] primaryKey,
        Map<String, String> options,
        SourceFormat format,
        byte[] identity) {}
