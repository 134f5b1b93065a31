package io.tributary.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Keeps the package dependencies of docs/ARCHITECTURE.md (Packages) and confines third-party engines to their package. */
class ArchitectureTest {
    private static final String ROOT = "io.tributary.";
    private static final Map<String, Set<String>> ALLOWED = Map.ofEntries(
            Map.entry("common", Set.of()),
            Map.entry("storage", Set.of("common")),
            Map.entry("catalog", Set.of("common")),
            Map.entry("plan", Set.of("catalog", "common")),
            Map.entry("connector", Set.of("common")),
            Map.entry("batch", Set.of("storage", "catalog", "common")),
            Map.entry("sql", Set.of("plan", "catalog", "batch", "common")),
            Map.entry("stream", Set.of("plan", "storage", "common")),
            Map.entry("meta", Set.of("stream", "batch", "storage", "catalog", "plan", "connector", "common")),
            // server also reads catalog records: the table definitions its DML and COPY paths write
            // through flow from the planner (sql) to the writer (meta). The direction stays downward.
            Map.entry("server", Set.of("sql", "meta", "batch", "catalog", "common")),
            // a remote job worker shares no disk with the server: no storage, no stream, no batch;
            // it uses the jobs SPI and the sink's target writer of meta, and the catalog records
            Map.entry("worker", Set.of("meta", "catalog", "common")));

    /**
     * The roles inside meta and the other roles each may use (any role may use the packages meta
     * may use). Lower roles never reach up: epochs know nothing of DDL, writers nothing of sources.
     * The package meta itself (the {@code Database} that wires them) may use them all.
     */
    private static final Map<String, Set<String>> META_ROLES = Map.ofEntries(
            Map.entry("epoch", Set.of()),
            Map.entry("write", Set.of("epoch")),
            Map.entry("ingest", Set.of("write", "epoch")),
            Map.entry("jobs", Set.of()),
            Map.entry("sink", Set.of("epoch", "jobs")),
            Map.entry("ddl", Set.of("ingest", "sink", "epoch", "jobs")),
            Map.entry("system", Set.of("ddl", "ingest", "sink", "jobs", "write")));

    /**
     * The roles inside server and the other roles each may use: sessions know no protocol; the
     * HTTP side (dashboard, /metrics, API) shares pgwire's password verifier and statement
     * observer and runs statements through sessions, and neither of the others knows it.
     */
    private static final Map<String, Set<String>> SERVER_ROLES = Map.ofEntries(
            Map.entry("session", Set.of()),
            Map.entry("pgwire", Set.of("session")),
            Map.entry("http", Set.of("pgwire", "session")));

    private static JavaClasses classes;

    @BeforeAll
    static void importClasses() {
        classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.tributary");
    }

    @Test
    void packagesUseOnlyWhatDesignAllows() {
        for (Map.Entry<String, Set<String>> e : ALLOWED.entrySet()) {
            for (String other : ALLOWED.keySet()) {
                if (other.equals(e.getKey()) || e.getValue().contains(other)) {
                    continue;
                }
                noClasses()
                        .that()
                        .resideInAPackage(ROOT + e.getKey() + "..")
                        .should()
                        .dependOnClassesThat()
                        .resideInAPackage(ROOT + other + "..")
                        .because(e.getKey() + " may use only " + e.getValue())
                        .allowEmptyShould(true)
                        .check(classes);
            }
            noClasses()
                    .that()
                    .resideInAPackage(ROOT + e.getKey() + "..")
                    .should()
                    .dependOnClassesThat()
                    .resideInAPackage(ROOT + "cli..")
                    .allowEmptyShould(true)
                    .check(classes);
        }
    }

    @Test
    void metaRolesUseOnlyTheRolesBelowThem() {
        for (Map.Entry<String, Set<String>> e : META_ROLES.entrySet()) {
            for (String other : META_ROLES.keySet()) {
                if (other.equals(e.getKey()) || e.getValue().contains(other)) {
                    continue;
                }
                noClasses()
                        .that()
                        .resideInAPackage(ROOT + "meta." + e.getKey() + "..")
                        .should()
                        .dependOnClassesThat()
                        .resideInAPackage(ROOT + "meta." + other + "..")
                        .because("meta." + e.getKey() + " may use only " + e.getValue() + " of meta's roles")
                        .check(classes);
            }
            noClasses()
                    .that()
                    .resideInAPackage(ROOT + "meta." + e.getKey() + "..")
                    .should()
                    .dependOnClassesThat()
                    .resideInAPackage(ROOT + "meta")
                    .because("the database wires the roles; no role depends on it")
                    .check(classes);
        }
    }

    @Test
    void serverRolesUseOnlyTheirDirections() {
        for (Map.Entry<String, Set<String>> e : SERVER_ROLES.entrySet()) {
            for (String other : SERVER_ROLES.keySet()) {
                if (other.equals(e.getKey()) || e.getValue().contains(other)) {
                    continue;
                }
                noClasses()
                        .that()
                        .resideInAPackage(ROOT + "server." + e.getKey() + "..")
                        .should()
                        .dependOnClassesThat()
                        .resideInAPackage(ROOT + "server." + other + "..")
                        .because("server." + e.getKey() + " may use only " + e.getValue() + " of server's roles")
                        .check(classes);
            }
        }
    }

    @Test
    void metricsLibrariesAndHttpCodecOnlyInServerHttp() {
        noClasses()
                .that()
                .resideOutsideOfPackage(ROOT + "server.http..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("io.micrometer..", "io.prometheus..", "io.netty.handler.codec.http..")
                .because("the engine reports through common.metrics.MetricSet and listeners, never a metrics library")
                .check(classes);
    }

    @Test
    void calciteOnlyInSql() {
        noClasses()
                .that()
                .resideOutsideOfPackage(ROOT + "sql..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("org.apache.calcite..")
                .check(classes);
    }

    @Test
    void rocksDbOnlyInStorage() {
        noClasses()
                .that()
                .resideOutsideOfPackage(ROOT + "storage..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("org.rocksdb..")
                .check(classes);
    }

    @Test
    void nettyOnlyInServer() {
        noClasses()
                .that()
                .resideOutsideOfPackage(ROOT + "server..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("io.netty..")
                .check(classes);
    }
}
