package io.tributary.connector;

import java.util.Map;

/**
 * A table's {@code FORMAT format ENCODE encode [(options)]} clause, e.g. PLAIN / CSV with
 * {@code without_header = 'true'}. Names are upper-cased, option names lower-cased.
 */
public record SourceFormat(String format, String encode, Map<String, String> options) {}
