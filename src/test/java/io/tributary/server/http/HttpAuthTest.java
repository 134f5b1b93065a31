package io.tributary.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tributary.server.pgwire.ScramCredentials;
import java.net.InetAddress;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.sql.Connection;
import java.util.Base64;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * With a password the HTTP side asks for it by HTTP Basic and checks it against pgwire's SCRAM
 * verifier; without one it serves loopback clients only.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HttpAuthTest {
    private static String basic(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void passwordServerRequiresBasicWithTheSamePassword() throws Exception {
        try (DashboardFixture f = new DashboardFixture("s3cret:pa55")) {
            HttpResponse<String> none = f.get("/api/jobs");
            assertEquals(401, none.statusCode());
            assertTrue(
                    none.headers().firstValue("www-authenticate").orElseThrow().startsWith("Basic "));
            assertEquals(
                    401,
                    f.get("/metrics", "Authorization", basic("root", "wrong")).statusCode());
            assertEquals(401, f.get("/", "Authorization", "Basic !!!").statusCode());
            assertEquals(
                    200,
                    f.get("/api/jobs", "Authorization", basic("root", "s3cret:pa55"))
                            .statusCode());
            assertEquals(
                    200,
                    f.get("/metrics", "Authorization", basic("anyone", "s3cret:pa55"))
                            .statusCode());
            try (Connection c = f.connect()) {
                assertTrue(c.isValid(5), "pgwire takes the same password");
            }
        }
    }

    @Test
    void withoutPasswordOnlyLoopbackClients() throws Exception {
        HttpAccess open = new HttpAccess(null);
        assertEquals(HttpAccess.Verdict.ALLOWED, open.check(InetAddress.getByName("127.0.0.1"), null));
        assertEquals(HttpAccess.Verdict.ALLOWED, open.check(InetAddress.getByName("::1"), null));
        assertEquals(HttpAccess.Verdict.FORBIDDEN, open.check(InetAddress.getByName("192.0.2.7"), null));
        HttpAccess guarded = new HttpAccess(ScramCredentials.derive("pw", new SecureRandom()));
        assertEquals(HttpAccess.Verdict.ALLOWED, guarded.check(InetAddress.getByName("192.0.2.7"), basic("u", "pw")));
        assertEquals(HttpAccess.Verdict.UNAUTHORIZED, guarded.check(InetAddress.getByName("127.0.0.1"), null));
        assertNull(HttpAccess.basicPassword("Bearer x"));
        assertEquals("a:b", HttpAccess.basicPassword(basic("u", "a:b")));
    }
}
