package io.kafkamv.it.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import java.util.Map;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The arrows between modules point one way: edge, then compiler and job store, then connectors. */
class ArchitectureTest {

    /** Each module's base package. */
    private static final Map<String, String> MODULES = Map.of(
        "embedded-kafka", "io.kafkamv.embedded",
        "connectors", "io.kafkamv.connectors",
        "topology-compiler", "io.kafkamv.compiler",
        "job-store", "io.kafkamv.jobstore",
        "ddl-service", "io.kafkamv.service");

    private static JavaClasses classes;

    @BeforeAll
    static void importProductionClasses() {
        classes = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.kafkamv");
    }

    @Test
    void compilerAndJobStoreNeverDependOnTheService() {
        noClasses().that().resideInAnyPackage("io.kafkamv.compiler..", "io.kafkamv.jobstore..")
            .should().dependOnClassesThat().resideInAPackage("io.kafkamv.service..")
            .check(classes);
    }

    @Test
    void jobStoreKnowsNeitherTheCompilerNorCalcite() {
        noClasses().that().resideInAPackage("io.kafkamv.jobstore..")
            .should().dependOnClassesThat().resideInAnyPackage("io.kafkamv.compiler..", "org.apache.calcite..")
            .check(classes);
    }

    @Test
    void compilerDoesNoNetworkIo() {
        noClasses().that().resideInAPackage("io.kafkamv.compiler..")
            .should().dependOnClassesThat().resideInAnyPackage(
                "java.net..", "org.apache.kafka.clients..", "io.kafkamv.embedded..")
            .check(classes);
    }

    @Test
    void noModuleReachesIntoAnotherModulesInternalPackage() {
        MODULES.values().forEach(base ->
            noClasses().that().resideOutsideOfPackage(base + "..")
                .should().dependOnClassesThat().resideInAPackage(base + "..internal..")
                .allowEmptyShould(true)
                .check(classes));
    }

    @Test
    void theServiceHasNoPackageCycles() {
        slices().assignedFrom(packagesOf("io.kafkamv.service", false)).should().beFreeOfCycles().check(classes);
    }

    @Test
    void theCompilerHasNoPackageCycles() {
        slices().assignedFrom(packagesOf("io.kafkamv.compiler", true)).should().beFreeOfCycles().check(classes);
    }

    /**
     * Processors, stores and serdes are how a topology is built, not what the service may call: only the
     * topology's builders use them. What the service shares with a running topology is in {@code runtime}.
     */
    @Test
    void onlyTheTopologyBuildersUseProcessors() {
        noClasses().that().resideOutsideOfPackages("io.kafkamv.compiler.topology..")
            .should().dependOnClassesThat().resideInAPackage("io.kafkamv.compiler.topology.internal..")
            .check(classes);
    }

    @Test
    void theImportSeesEveryModule() {
        MODULES.values().forEach(base ->
            org.assertj.core.api.Assertions.assertThat(classes.containPackage(base))
                .as("classes of %s were imported", base).isTrue());
    }

    /**
     * Each package right under {@code base} is a slice (each package at any depth, if {@code everyDepth}), and
     * so is {@code base} itself: a cycle through the module's root package (a subpackage using a class of the
     * root that uses the subpackage) counts.
     */
    private static SliceAssignment packagesOf(String base, boolean everyDepth) {
        return new SliceAssignment() {
            @Override
            public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
                String name = javaClass.getPackageName();
                if (name.equals(base)) {
                    return SliceIdentifier.of("(root)");
                }
                if (!name.startsWith(base + ".")) {
                    return SliceIdentifier.ignore();
                }
                String relative = name.substring(base.length() + 1);
                // The parser JavaCC generates into parser.impl builds parser's nodes, and parser names it: one slice.
                return SliceIdentifier.of(everyDepth ? relative.replaceFirst("\\.impl$", "") : relative.split("\\.")[0]);
            }

            @Override
            public String getDescription() {
                return "packages of " + base;
            }
        };
    }
}
