package io.tributary.plan;

import io.tributary.common.types.DataType;

/**
 * One window function of an {@link OverWindowNode}.
 *
 * @param arg the argument's input column, or -1 ({@code count(*)}, the ranking functions)
 * @param offset how many rows back ({@code lag}) or ahead ({@code lead}); 0 for other functions
 * @param defaultValue {@code lag}/{@code lead}'s value where the offset row does not exist: a
 *     canonical value of {@code type}, or null
 * @param type the result type
 */
public record WindowCall(WindowKind kind, int arg, int offset, Object defaultValue, DataType type) {
    @Override
    public String toString() {
        String name = kind.name().toLowerCase(java.util.Locale.ROOT);
        String args = arg < 0 ? "" : "$" + arg + (offset != 0 ? ", " + offset : "");
        return name + "(" + args + (defaultValue != null ? ", " + defaultValue : "") + ")";
    }
}
