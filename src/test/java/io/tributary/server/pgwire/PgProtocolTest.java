package io.tributary.server.pgwire;

import static io.tributary.server.pgwire.PgWireTestClient.bind;
import static io.tributary.server.pgwire.PgWireTestClient.describe;
import static io.tributary.server.pgwire.PgWireTestClient.execute;
import static io.tributary.server.pgwire.PgWireTestClient.parse;
import static io.tributary.server.pgwire.PgWireTestClient.query;
import static io.tributary.server.pgwire.PgWireTestClient.simple;
import static io.tributary.server.pgwire.PgWireTestClient.startup;
import static io.tributary.server.pgwire.PgWireTestClient.types;
import static io.tributary.server.pgwire.PgWireTestClient.untyped;
import static io.tributary.server.pgwire.PgWireTestClient.withBody;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tributary.server.pgwire.PgWireTestClient.Msg;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import javax.crypto.Mac;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

/** Protocol-level tests on an EmbeddedChannel with session work run inline. */
class PgProtocolTest {
    private final SecureRandom random = new SecureRandom();
    private final List<PgFakeSession> sessions = new ArrayList<>();

    private PgWireTestClient client(String password) {
        ScramCredentials credentials = password == null ? null : ScramCredentials.derive(password, random);
        return new PgWireTestClient(new PgServerContext(
                PgFakeSession.factory(sessions, new CountDownLatch(1)),
                credentials,
                new PgBackendRegistry(random),
                random,
                StatementObserver.NONE));
    }

    private PgWireTestClient connected() {
        PgWireTestClient c = client(null);
        c.send(startup("user", "root", "database", "dev"));
        c.receive();
        return c;
    }

    @Test
    void sslRequestRefusedThenStartupWithTrust() {
        PgWireTestClient c = client(null);
        c.send(untyped(80877103));
        assertEquals('N', c.receiveByte());
        c.send(startup("user", "root", "database", "dev", "application_name", "t"));
        List<Msg> msgs = c.receive();
        assertEquals("R" + "S".repeat(6) + "KZ", types(msgs));
        assertEquals('I', (char) msgs.get(msgs.size() - 1).body()[0]);
        assertEquals(1, sessions.size());
    }

    @Test
    void unsupportedProtocolVersionIsRejected() {
        PgWireTestClient c = client(null);
        c.send(untyped(2 << 16));
        Msg error = c.receive().get(0);
        assertEquals("08P01", error.field('C'));
        assertTrue(error.field('M').contains("2.0"), error.field('M'));
        assertFalse(c.channel.isActive());
    }

    @Test
    void absurdLengthIsProtocolViolation() {
        PgWireTestClient c = connected();
        c.send(io.netty.buffer.Unpooled.buffer().writeByte('Q').writeInt(Integer.MAX_VALUE));
        Msg error = c.receive().get(0);
        assertEquals("08P01", error.field('C'));
        assertFalse(c.channel.isActive());
    }

    @Test
    void unknownDatabaseIsFatal() {
        PgWireTestClient c = client(null);
        c.send(startup("user", "root", "database", "missing"));
        List<Msg> msgs = c.receive();
        assertEquals("RE", types(msgs));
        assertEquals("3D000", msgs.get(1).field('C'));
        assertEquals("FATAL", msgs.get(1).field('S'));
    }

    @Test
    void simpleQueryWithSeveralStatements() {
        PgWireTestClient c = connected();
        c.send(query("select 1; insert into t values (1); select * from gen(3)"));
        List<Msg> msgs = c.receive();
        assertEquals("TDCCTDDDCZ", types(msgs));
        assertEquals(List.of("1"), msgs.get(1).columns());
        assertEquals("SELECT 1\0", msgs.get(2).text());
        assertEquals("INSERT 0 1\0", msgs.get(3).text());
        assertEquals("SELECT 3\0", msgs.get(8).text());
    }

    @Test
    void emptyQuery() {
        PgWireTestClient c = connected();
        c.send(query(" ; "));
        assertEquals("IZ", types(c.receive()));
    }

    @Test
    void errorStopsTheRestOfTheMessage() {
        PgWireTestClient c = connected();
        c.send(query("select 1; nonsense; insert into t values (1)"));
        List<Msg> msgs = c.receive();
        assertEquals("TDCEZ", types(msgs));
        Msg error = msgs.get(3);
        assertEquals("ERROR", error.field('S'));
        assertEquals("42601", error.field('C'));
        // the statement's position 1 counted from the start of the Query's text, as PostgreSQL counts
        assertEquals("11", error.field('P'));
        assertEquals("check the fake grammar", error.field('H'));
        assertFalse(sessions.get(0).executed.contains("insert into t values (1)"));
        c.send(query("select 1"));
        assertEquals("TDCZ", types(c.receive()));
    }

    @Test
    void internalErrorsHideStackTraces() {
        PgWireTestClient c = connected();
        c.send(query("boom"));
        Msg error = c.receive().get(0);
        assertEquals("XX000", error.field('C'));
        // one line naming an incident id; the failure's own text goes to the server log only
        assertTrue(error.field('M').matches("internal error \\(incident [0-9a-f]+\\)"), error.field('M'));
        assertFalse(error.field('M').contains("boom"));
        assertFalse(error.field('M').contains("\n"));
    }

    @Test
    void allTypesInTextFormat() {
        PgWireTestClient c = connected();
        c.send(query("select types"));
        List<Msg> msgs = c.receive();
        assertEquals("TDCZ", types(msgs));
        assertEquals(
                List.of(
                        "t",
                        "-7",
                        "42",
                        "1099511627776",
                        "1.5",
                        "-2.25",
                        "-12345.678",
                        "héllo",
                        "v",
                        "\\x0102ff",
                        "2022-01-08",
                        "01:02:03.000001",
                        "2023-11-14 22:13:20.123456",
                        "2023-11-14 22:13:20+00",
                        "1 year 2 mons 3 days 00:00:05"),
                msgs.get(1).columns());
    }

    @Test
    void changedParametersAndNotices() {
        PgWireTestClient c = connected();
        c.send(query("set application_name = x; notice"));
        List<Msg> msgs = c.receive();
        assertEquals("CSNCZ", types(msgs));
        assertEquals("application_name\0x\0", msgs.get(1).text());
        assertEquals("hello from the engine", msgs.get(2).field('M'));
    }

    @Test
    void extendedQueryWithRowLimitSuspendsPortal() {
        PgWireTestClient c = connected();
        c.send(parse("s1", "select * from gen(5)"));
        c.send(describe('S', "s1"));
        c.send(bind("p1", "s1", 0));
        c.send(execute("p1", 2));
        c.send(simple('H'));
        List<Msg> msgs = c.receive();
        assertEquals("1tT2DDs", types(msgs));
        c.send(execute("p1", 2));
        c.send(execute("p1", 2));
        c.send(simple('S'));
        msgs = c.receive();
        assertEquals("DDsDCZ", types(msgs));
        assertEquals(List.of("5"), msgs.get(3).columns());
        assertEquals("SELECT 5\0", msgs.get(4).text());
    }

    @Test
    void binaryResultsAndParameters() {
        PgWireTestClient c = connected();
        c.send(parse("", "echo $1, $2", 23, 0));
        c.send(bind("", "", 1, "7", "raw"));
        c.send(describe('P', ""));
        c.send(execute("", 0));
        c.send(simple('S'));
        List<Msg> msgs = c.receive();
        assertEquals("12TDCZ", types(msgs));
        byte[] row = msgs.get(3).body();
        // int16 count, int32 len 4, int4 7, int32 len 3, "raw"
        assertArrayEquals(new byte[] {0, 2, 0, 0, 0, 4, 0, 0, 0, 7, 0, 0, 0, 3, 'r', 'a', 'w'}, row);
        assertEquals("echo $1, $2[7, raw]", sessions.get(0).executed.get(0));
    }

    @Test
    void badTextParameterIs22P02() {
        PgWireTestClient c = connected();
        c.send(parse("", "echo $1", 23));
        c.send(bind("", "", 0, "x"));
        c.send(simple('S'));
        List<Msg> msgs = c.receive();
        assertEquals("1EZ", types(msgs));
        assertEquals("22P02", msgs.get(1).field('C'));
    }

    @Test
    void errorsSkipToSync() {
        PgWireTestClient c = connected();
        c.send(bind("", "nope", 0));
        c.send(execute("", 0));
        c.send(parse("", "select 1"));
        c.send(simple('S'));
        List<Msg> msgs = c.receive();
        assertEquals("EZ", types(msgs));
        assertEquals("26000", msgs.get(0).field('C'));
        c.send(execute("nope", 0));
        c.send(simple('S'));
        msgs = c.receive();
        assertEquals("EZ", types(msgs));
        assertEquals("34000", msgs.get(0).field('C'));
        c.send(parse("", "select 1"));
        c.send(bind("", "", 0));
        c.send(execute("", 0));
        c.send(PgWireTestClient.close('S', ""));
        c.send(simple('S'));
        assertEquals("12DC3Z", types(c.receive()));
    }

    @Test
    void copyInSimpleQueryThenRemainingStatements() {
        PgWireTestClient c = connected();
        c.send(query("copy t from stdin; select 1"));
        List<Msg> msgs = c.receive();
        assertEquals("G", types(msgs));
        assertEquals(2, msgs.get(0).body()[2]);
        c.send(withBody('d', "1\ta\n2\t".getBytes(StandardCharsets.UTF_8)));
        c.send(withBody('d', "b\n".getBytes(StandardCharsets.UTF_8)));
        c.send(simple('c'));
        msgs = c.receive();
        assertEquals("CTDCZ", types(msgs));
        assertEquals("COPY 2\0", msgs.get(0).text());
        assertEquals("1\ta\n2\tb\n", sessions.get(0).copied.toString(StandardCharsets.UTF_8));
    }

    @Test
    void copyFailAbortsTheSink() {
        PgWireTestClient c = connected();
        c.send(query("copy t from stdin"));
        c.receive();
        c.send(withBody('f', "stop\0".getBytes(StandardCharsets.UTF_8)));
        List<Msg> msgs = c.receive();
        assertEquals("EZ", types(msgs));
        assertEquals("57014", msgs.get(0).field('C'));
        assertEquals("COPY from stdin failed: stop", sessions.get(0).copyAbortReason);
    }

    @Test
    void connectionLossAbortsCopyAndClosesSession() {
        PgWireTestClient c = connected();
        c.send(query("copy t from stdin"));
        c.receive();
        c.channel.close();
        assertEquals("connection to client lost", sessions.get(0).copyAbortReason);
        assertTrue(sessions.get(0).closed);
    }

    @Test
    void terminateClosesSession() {
        PgWireTestClient c = connected();
        c.send(simple('X'));
        assertFalse(c.channel.isActive());
        assertTrue(sessions.get(0).closed);
    }

    @Test
    void scramAuthenticationSucceeds() throws Exception {
        PgWireTestClient c = client("s3cret");
        c.send(startup("user", "root", "database", "dev"));
        ScramClient scram = new ScramClient("s3cret");
        List<Msg> msgs = scram.run(c);
        assertEquals("RR" + "S".repeat(6) + "KZ", types(msgs));
        assertEquals(1, sessions.size());
    }

    @Test
    void scramAuthenticationWithWrongPasswordFails() throws Exception {
        PgWireTestClient c = client("s3cret");
        c.send(startup("user", "root", "database", "dev"));
        List<Msg> msgs = new ScramClient("wrong").run(c);
        assertEquals("E", types(msgs));
        assertEquals("28P01", msgs.get(0).field('C'));
        assertEquals(
                "password authentication failed for user \"root\"", msgs.get(0).field('M'));
        assertFalse(c.channel.isActive());
        assertTrue(sessions.isEmpty());
    }

    /** The client half of SCRAM-SHA-256, written against RFC 5802 with JDK primitives. */
    private static final class ScramClient {
        private final String password;

        ScramClient(String password) {
            this.password = password;
        }

        /** Runs the exchange and returns the messages after the server's SASLContinue. */
        List<Msg> run(PgWireTestClient c) throws Exception {
            Msg sasl = c.receive().get(0);
            assertEquals('R', sasl.type());
            assertTrue(sasl.text().contains("SCRAM-SHA-256"));
            String clientFirstBare = "n=,r=clientnonce123";
            c.send(PgWireTestClient.saslInitial(
                    "SCRAM-SHA-256", ("n,," + clientFirstBare).getBytes(StandardCharsets.UTF_8)));
            Msg cont = c.receive().get(0);
            String serverFirst = new String(cont.body(), 4, cont.body().length - 4, StandardCharsets.UTF_8);
            String nonce = serverFirst.split(",")[0].substring(2);
            byte[] salt = Base64.getDecoder().decode(serverFirst.split(",")[1].substring(2));
            int iterations = Integer.parseInt(serverFirst.split(",")[2].substring(2));
            assertTrue(nonce.startsWith("clientnonce123"));
            byte[] salted = SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256")
                    .generateSecret(new PBEKeySpec(password.toCharArray(), salt, iterations, 256))
                    .getEncoded();
            byte[] clientKey = hmac(salted, "Client Key");
            byte[] storedKey = MessageDigest.getInstance("SHA-256").digest(clientKey);
            String withoutProof = "c=biws,r=" + nonce;
            String authMessage = clientFirstBare + "," + serverFirst + "," + withoutProof;
            byte[] signature = hmac(storedKey, authMessage);
            byte[] proof = new byte[clientKey.length];
            for (int i = 0; i < proof.length; i++) {
                proof[i] = (byte) (clientKey[i] ^ signature[i]);
            }
            String clientFinal = withoutProof + ",p=" + Base64.getEncoder().encodeToString(proof);
            c.send(withBody('p', clientFinal.getBytes(StandardCharsets.UTF_8)));
            List<Msg> msgs = c.receive();
            if (msgs.get(0).type() == 'R') {
                String expected =
                        "v=" + Base64.getEncoder().encodeToString(hmac(hmac(salted, "Server Key"), authMessage));
                Msg fin = msgs.get(0);
                assertEquals(expected, new String(fin.body(), 4, fin.body().length - 4, StandardCharsets.UTF_8));
                assertEquals(0, msgs.get(1).body()[3]);
            }
            return msgs;
        }

        private static byte[] hmac(byte[] key, String msg) throws Exception {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(msg.getBytes(StandardCharsets.UTF_8));
        }
    }
}
