package io.tributary.server.http;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Map;

/**
 * The dashboard's files (HTML, CSS, JavaScript), bundled in the jar under
 * {@code io/tributary/server/http/dashboard/} and read once at startup, so the dashboard works
 * without network access. Immutable after construction.
 */
final class StaticAssets {
    /** One file: its bytes and content type. */
    record Asset(byte[] body, String contentType) {}

    private static final String ROOT = "dashboard/";
    private static final Map<String, String> FILES = Map.of(
            "/", "index.html",
            "/app.js", "app.js",
            "/style.css", "style.css");

    private final Map<String, Asset> assets = new HashMap<>();

    StaticAssets() {
        FILES.forEach((path, file) -> assets.put(path, new Asset(read(ROOT + file), contentType(file))));
    }

    /** The file served at {@code path}, or null. */
    Asset get(String path) {
        return assets.get(path);
    }

    private static byte[] read(String resource) {
        try (InputStream in = StaticAssets.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("the jar lacks the dashboard file " + resource);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String contentType(String file) {
        if (file.endsWith(".html")) {
            return "text/html; charset=utf-8";
        }
        return file.endsWith(".css") ? "text/css; charset=utf-8" : "text/javascript; charset=utf-8";
    }
}
