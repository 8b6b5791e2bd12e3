package io.kafkamv.compiler.catalog;

import java.util.Collection;
import java.util.Optional;

/** What the compiler may read: the relations visible to queries. */
@FunctionalInterface
public interface Catalog {

    Collection<Relation> relations();

    default Optional<Relation> relation(String name) {
        return relations().stream().filter(relation -> relation.name().equals(name)).findFirst();
    }
}
