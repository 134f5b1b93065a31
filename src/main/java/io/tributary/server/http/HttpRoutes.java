package io.tributary.server.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Maps a request (method, path, headers that matter) to its reply: the dashboard's files,
 * {@code /metrics} and the JSON API. Called on an HTTP worker thread, never on the event loop,
 * since a cancel waits for an epoch to commit. Thread-safe.
 */
final class HttpRoutes {
    /** A reply: status, content type and body. */
    record Reply(int status, String contentType, byte[] body) {}

    private static final String JSON = "application/json; charset=utf-8";
    private static final Pattern VIEW = Pattern.compile("/api/views/([^/]+)");
    private static final Pattern CANCEL = Pattern.compile("/api/jobs/(\\d{1,9})/cancel");
    /**
     * A POST must carry this header: a page of another origin cannot add it without a CORS
     * preflight, which this server never grants, so no other site can cancel jobs through a
     * visitor's browser.
     */
    static final String ACTION_HEADER = "X-Tributary-Action";

    private final ObjectMapper json = new ObjectMapper();
    private final StaticAssets assets = new StaticAssets();
    private final DatabaseBoards boards;
    private final EngineMeters meters;

    HttpRoutes(DatabaseBoards boards, EngineMeters meters) {
        this.boards = boards;
        this.meters = meters;
    }

    /**
     * @param path the decoded path, without query string
     * @param database the database the API call is about ({@code ?database=}), {@code dev} when absent
     * @param accept the Accept header, or null
     * @param action the {@link #ACTION_HEADER} header, or null
     */
    Reply handle(String method, String path, String database, String accept, String action) {
        try {
            if (method.equals("POST")) {
                Matcher cancel = CANCEL.matcher(path);
                if (!cancel.matches()) {
                    return error(new ApiError(path.startsWith("/api/") ? 405 : 404, null, "no such action: " + path));
                }
                if (action == null) {
                    return error(new ApiError(403, null, "a POST needs the header " + ACTION_HEADER));
                }
                return ok(boards.board(database).api().cancel(Integer.parseInt(cancel.group(1))));
            }
            if (!method.equals("GET") && !method.equals("HEAD")) {
                return error(new ApiError(405, null, "method " + method + " is not allowed"));
            }
            StaticAssets.Asset asset = assets.get(path);
            if (asset != null) {
                return new Reply(200, asset.contentType(), asset.body());
            }
            if (path.equals("/metrics")) {
                EngineMeters.Scrape scrape = meters.scrape(accept);
                return new Reply(200, scrape.contentType(), scrape.body());
            }
            if (path.equals("/api/databases")) {
                return ok(DashboardApi.databases(boards.all()));
            }
            if (!path.startsWith("/api/")) {
                return error(new ApiError(404, null, "not found: " + path));
            }
            DashboardApi api = boards.board(database).api();
            Matcher view = VIEW.matcher(path);
            if (view.matches()) {
                return ok(api.view(view.group(1)));
            }
            return switch (path) {
                case "/api/jobs" -> ok(api.jobs());
                case "/api/sources" -> ok(api.sources());
                case "/api/sinks" -> ok(api.sinks());
                case "/api/views" -> ok(api.views());
                case "/api/epochs" -> ok(api.epochs());
                case "/api/metrics/history" -> ok(api.history());
                case "/api/consumers" -> ok(api.consumers(boards.all()));
                default -> error(new ApiError(404, null, "not found: " + path));
            };
        } catch (ApiError e) {
            return error(e);
        }
    }

    private Reply ok(Object body) {
        try {
            return new Reply(200, JSON, json.writeValueAsBytes(body));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("the API built a tree Jackson cannot write", e);
        }
    }

    Reply error(ApiError e) {
        Map<String, Object> body = new java.util.LinkedHashMap<>();
        body.put("sqlstate", e.sqlState());
        body.put("message", e.getMessage());
        try {
            return new Reply(e.status(), JSON, json.writeValueAsBytes(body));
        } catch (JsonProcessingException x) {
            return new Reply(
                    e.status(),
                    "text/plain; charset=utf-8",
                    String.valueOf(e.getMessage()).getBytes(StandardCharsets.UTF_8));
        }
    }
}
