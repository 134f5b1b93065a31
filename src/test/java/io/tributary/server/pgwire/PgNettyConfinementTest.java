package io.tributary.server.pgwire;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * Netty is an implementation detail of the wire protocols and must not leak out of them: this
 * package (pgwire) and the HTTP listener ({@code server.http}).
 */
class PgNettyConfinementTest {
    @Test
    void onlyPgwireUsesNetty() {
        JavaClasses classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.tributary");
        noClasses()
                .that()
                .resideOutsideOfPackages("io.tributary.server.pgwire", "io.tributary.server.http")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("io.netty..")
                .allowEmptyShould(true)
                .check(classes);
    }
}
