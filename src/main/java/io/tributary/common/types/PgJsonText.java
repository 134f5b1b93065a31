package io.tributary.common.types;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * PostgreSQL's json and jsonb text: input validated by Jackson's parser (PostgreSQL's grammar is
 * JSON's; Jackson's defaults refuse what PostgreSQL refuses: leading zeros, {@code NaN}, trailing
 * commas, comments, single quotes), jsonb's normalised output, and the tree operators read.
 * Stateless and thread-safe; called wherever text becomes json or jsonb (literals, casts, COPY,
 * parameters) and from the json functions, on the caller's thread.
 */
public final class PgJsonText {
    /** Numbers as exact decimals, so {@code 1.0} keeps its scale as numeric does. */
    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .nodeFactory(JsonNodeFactory.withExactBigDecimals(true))
            .build();

    private PgJsonText() {}

    /**
     * The json value {@code text} spells, kept verbatim.
     *
     * @throws TributaryException 22P02 {@code invalid input syntax for type json} when it is no JSON
     */
    public static PgJson json(String text) {
        tree(text);
        return new PgJson(text);
    }

    /**
     * The jsonb value {@code text} spells, normalised.
     *
     * @throws TributaryException 22P02 as {@link #json}
     */
    public static PgJsonb jsonb(String text) {
        return new PgJsonb(normalize(tree(text)));
    }

    /** The jsonb value of tree {@code node}. */
    public static PgJsonb jsonb(JsonNode node) {
        return new PgJsonb(normalize(node));
    }

    /**
     * The tree of json text {@code text}; objects keep the last of duplicate keys.
     *
     * @throws TributaryException 22P02 as {@link #json}
     */
    public static JsonNode tree(String text) {
        try {
            JsonNode node = MAPPER.readTree(text);
            if (node == null || node.isMissingNode()) {
                throw invalid("The input string ended unexpectedly.");
            }
            return node;
        } catch (JsonProcessingException e) {
            throw invalid(e.getOriginalMessage());
        }
    }

    /**
     * The top-level members of json text {@code text} as written: for an object its keys in order
     * (duplicates kept) and each value's text exactly as it stands in {@code text}; for an array
     * the elements' texts (keys null). {@code text} must already be valid json ({@link #json}).
     *
     * @return null when {@code text} is a scalar; otherwise pairs of key and value text
     * @throws TributaryException 22P02 as {@link #json}
     */
    public static List<String[]> topLevel(String text) {
        try (com.fasterxml.jackson.core.JsonParser parser = MAPPER.getFactory().createParser(text)) {
            com.fasterxml.jackson.core.JsonToken first = parser.nextToken();
            boolean object = first == com.fasterxml.jackson.core.JsonToken.START_OBJECT;
            if (!object && first != com.fasterxml.jackson.core.JsonToken.START_ARRAY) {
                return null;
            }
            List<String[]> members = new ArrayList<>();
            while (true) {
                com.fasterxml.jackson.core.JsonToken token = parser.nextToken();
                if (token == com.fasterxml.jackson.core.JsonToken.END_OBJECT
                        || token == com.fasterxml.jackson.core.JsonToken.END_ARRAY) {
                    return members;
                }
                String key = null;
                if (object) {
                    key = parser.currentName();
                    parser.nextToken();
                }
                int start = (int) parser.currentTokenLocation().getCharOffset();
                // skips a container; reads a scalar to its end, which Jackson defers for strings
                parser.skipChildren();
                parser.finishToken();
                int end = (int) parser.currentLocation().getCharOffset();
                members.add(new String[] {key, text.substring(start, end)});
            }
        } catch (java.io.IOException e) {
            throw invalid(e.getMessage());
        }
    }

    private static TributaryException invalid(String detail) {
        String first = detail == null ? "" : detail.lines().findFirst().orElse("");
        return new TributaryException(
                SqlState.INVALID_TEXT_REPRESENTATION, "invalid input syntax for type json", 0, first, null, null);
    }

    /** {@code node} as PostgreSQL prints jsonb: sorted keys, {@code ", "} and {@code ": "}. */
    public static String normalize(JsonNode node) {
        StringBuilder out = new StringBuilder();
        write(node, out);
        return out.toString();
    }

    private static void write(JsonNode node, StringBuilder out) {
        switch (node.getNodeType()) {
            case OBJECT -> {
                out.append('{');
                boolean first = true;
                for (Map.Entry<String, JsonNode> e : sortedFields(node)) {
                    if (!first) {
                        out.append(", ");
                    }
                    first = false;
                    quote(e.getKey(), out);
                    out.append(": ");
                    write(e.getValue(), out);
                }
                out.append('}');
            }
            case ARRAY -> {
                out.append('[');
                for (int i = 0; i < node.size(); i++) {
                    if (i > 0) {
                        out.append(", ");
                    }
                    write(node.get(i), out);
                }
                out.append(']');
            }
            case STRING -> quote(node.textValue(), out);
            case NUMBER -> out.append(number(node));
            case BOOLEAN -> out.append(node.booleanValue());
            default -> out.append("null");
        }
    }

    /** A number as PostgreSQL's numeric prints it: no exponent, the input's scale, at least 0. */
    private static String number(JsonNode node) {
        if (!node.isFloatingPointNumber()) {
            return node.bigIntegerValue().toString();
        }
        BigDecimal d = node.decimalValue();
        return (d.scale() < 0 ? d.setScale(0) : d).toPlainString();
    }

    /**
     * The fields of object {@code node} in jsonb's order: shorter keys first, then by their UTF-8
     * bytes unsigned.
     */
    public static List<Map.Entry<String, JsonNode>> sortedFields(JsonNode node) {
        List<Map.Entry<String, JsonNode>> fields = new ArrayList<>(node.size());
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
            fields.add(it.next());
        }
        fields.sort((a, b) -> compareKeys(a.getKey(), b.getKey()));
        return fields;
    }

    private static int compareKeys(String a, String b) {
        byte[] x = a.getBytes(StandardCharsets.UTF_8);
        byte[] y = b.getBytes(StandardCharsets.UTF_8);
        return x.length != y.length ? Integer.compare(x.length, y.length) : java.util.Arrays.compareUnsigned(x, y);
    }

    /** {@code s} as a JSON string, escaped as PostgreSQL's {@code escape_json} does. */
    public static void quote(String s, StringBuilder out) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append("\\u00")
                                .append(Character.forDigit(c >> 4, 16))
                                .append(Character.forDigit(c & 15, 16));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }
}
