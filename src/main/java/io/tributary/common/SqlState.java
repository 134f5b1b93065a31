package io.tributary.common;

/** PostgreSQL SQLSTATE codes that Tributary reports to clients. */
public final class SqlState {
    public static final String SUCCESSFUL_COMPLETION = "00000";
    public static final String WARNING = "01000";
    public static final String FEATURE_NOT_SUPPORTED = "0A000";
    public static final String INVALID_PARAMETER_VALUE = "22023";
    public static final String DATA_EXCEPTION = "22000";
    public static final String NULL_VALUE_NOT_ALLOWED = "22004";
    public static final String DIVISION_BY_ZERO = "22012";
    public static final String INVALID_TEXT_REPRESENTATION = "22P02";
    public static final String NUMERIC_VALUE_OUT_OF_RANGE = "22003";
    public static final String SEQUENCE_GENERATOR_LIMIT_EXCEEDED = "2200H";
    public static final String STRING_DATA_RIGHT_TRUNCATION = "22001";
    public static final String INVALID_DATETIME_FORMAT = "22007";
    public static final String DATETIME_FIELD_OVERFLOW = "22008";
    public static final String INTERVAL_FIELD_OVERFLOW = "22015";
    public static final String INVALID_ARGUMENT_FOR_LOGARITHM = "2201E";
    public static final String INVALID_ARGUMENT_FOR_POWER = "2201F";
    public static final String INVALID_REGULAR_EXPRESSION = "2201B";
    public static final String INVALID_ESCAPE_SEQUENCE = "22025";
    public static final String INVALID_USE_OF_ESCAPE_CHARACTER = "2200C";
    public static final String SUBSTRING_ERROR = "22011";
    public static final String ARRAY_SUBSCRIPT_ERROR = "2202E";
    public static final String INVALID_ARGUMENT_FOR_WIDTH_BUCKET = "2201G";
    public static final String PROGRAM_LIMIT_EXCEEDED = "54000";
    public static final String UNTRANSLATABLE_CHARACTER = "22P05";
    public static final String BAD_COPY_FILE_FORMAT = "22P04";
    public static final String NOT_NULL_VIOLATION = "23502";
    public static final String UNIQUE_VIOLATION = "23505";
    public static final String CHECK_VIOLATION = "23514";
    public static final String INVALID_PASSWORD = "28P01";
    public static final String INVALID_AUTHORIZATION = "28000";
    public static final String SYNTAX_ERROR = "42601";
    public static final String UNDEFINED_TABLE = "42P01";
    public static final String UNDEFINED_COLUMN = "42703";
    public static final String UNDEFINED_FUNCTION = "42883";
    public static final String AMBIGUOUS_FUNCTION = "42725";
    public static final String UNDEFINED_OBJECT = "42704";
    public static final String DUPLICATE_TABLE = "42P07";
    public static final String DUPLICATE_COLUMN = "42701";
    public static final String DATATYPE_MISMATCH = "42804";
    public static final String CANNOT_COERCE = "42846";
    public static final String INVALID_TABLE_DEFINITION = "42P16";
    public static final String GROUPING_ERROR = "42803";
    public static final String WINDOWING_ERROR = "42P20";
    public static final String AMBIGUOUS_COLUMN = "42702";
    public static final String WRONG_OBJECT_TYPE = "42809";
    public static final String DEPENDENT_OBJECTS_STILL_EXIST = "2BP01";
    public static final String QUERY_CANCELED = "57014";
    public static final String SERIALIZATION_FAILURE = "40001";
    public static final String OBJECT_NOT_IN_PREREQUISITE_STATE = "55000";
    public static final String CONFIGURATION_LIMIT_EXCEEDED = "53400";
    public static final String OUT_OF_MEMORY = "53200";
    public static final String INVALID_RECURSION = "42P19";
    public static final String ACTIVE_SQL_TRANSACTION = "25001";
    public static final String NO_ACTIVE_SQL_TRANSACTION = "25P01";
    public static final String IN_FAILED_SQL_TRANSACTION = "25P02";
    public static final String INVALID_SAVEPOINT_SPECIFICATION = "3B001";
    public static final String ADMIN_SHUTDOWN = "57P01";
    public static final String PROTOCOL_VIOLATION = "08P01";
    public static final String INVALID_SQL_STATEMENT_NAME = "26000";
    public static final String INVALID_CURSOR_NAME = "34000";
    public static final String INVALID_BINARY_REPRESENTATION = "22P03";
    public static final String INSUFFICIENT_PRIVILEGE = "42501";
    /** An ON CONFLICT (or upsert) key that no unique constraint matches. */
    public static final String INVALID_COLUMN_REFERENCE = "42P10";

    public static final String DUPLICATE_OBJECT = "42710";
    public static final String DUPLICATE_PREPARED_STATEMENT = "42P05";
    public static final String UNDEFINED_PARAMETER = "42P02";
    public static final String DUPLICATE_CURSOR = "42P03";
    public static final String INVALID_CATALOG_NAME = "3D000";
    public static final String DUPLICATE_DATABASE = "42P04";
    public static final String DUPLICATE_SCHEMA = "42P06";
    public static final String INVALID_SCHEMA_NAME = "3F000";
    public static final String RESERVED_NAME = "42939";
    public static final String OBJECT_IN_USE = "55006";
    public static final String CANT_CHANGE_RUNTIME_PARAM = "55P02";
    public static final String SQLCLIENT_UNABLE_TO_ESTABLISH_SQLCONNECTION = "08001";
    public static final String CONNECTION_FAILURE = "08006";
    public static final String IO_ERROR = "58030";
    public static final String CARDINALITY_VIOLATION = "21000";
    public static final String GENERATED_ALWAYS = "428C9";
    public static final String INTERNAL_ERROR = "XX000";

    private SqlState() {}
}
