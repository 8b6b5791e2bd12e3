package io.kafkamv.connectors.registry;

/**
 * What kafka-mv needs of a Confluent-compatible Schema Registry. The Confluent client library is
 * not served by our Maven registry; {@link SchemaRegistryClient} speaks the documented REST API.
 */
public interface SchemaRegistry {

    /** A schema as the registry holds it under a subject. */
    record Registered(int id, int version, String schema) {
    }

    /** Registers a schema under a subject (or finds it there) and returns its id. */
    int register(String subject, String schema);

    /** The schema with this id; ids are global and immutable, so answers are cached. */
    String schemaById(int id);

    /** The latest schema of a subject. */
    Registered latest(String subject);

    /** Whether the schema may be registered under the subject by the subject's compatibility rule. */
    boolean isCompatible(String subject, String schema);
}
