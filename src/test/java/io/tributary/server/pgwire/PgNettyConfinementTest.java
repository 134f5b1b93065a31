package io.tributary.server.pgwire;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** Netty is an implementation detail of the wire protocol and must not leak out of this package. */
class PgNettyConfinementTest {
    @Test
    void onlyPgwireUsesNetty() {
        JavaClasses classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.tributary");
        noClasses()
                .that()
                .resideOutsideOfPackage("io.tributary.server.pgwire")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("io.netty..")
                .allowEmptyShould(true)
                .check(classes);
    }
}
