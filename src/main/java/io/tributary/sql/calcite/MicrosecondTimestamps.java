package io.tributary.sql.calcite;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a function (a public static method Calcite calls, or a function class with its own
 * implementor) whose {@code TIMESTAMP} and {@code TIMESTAMP WITH LOCAL TIME ZONE} parameters and
 * result are microseconds since 1970, the form Calcite's generated code holds them in. {@link
 * MillisecondCalls} hands every other function milliseconds and reads its timestamp result as
 * milliseconds. On a {@code Long} parameter of a schema function ({@link MicrosecondParameters}), it
 * makes that parameter a {@code TIMESTAMP}.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.TYPE, ElementType.PARAMETER})
@interface MicrosecondTimestamps {}
