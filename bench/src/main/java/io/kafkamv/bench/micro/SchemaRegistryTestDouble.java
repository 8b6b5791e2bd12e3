package io.kafkamv.bench.micro;

import io.kafkamv.connectors.registry.SchemaRegistry;

/** One schema with id 1, in memory: the decoder benchmark measures decoding, not HTTP. */
final class SchemaRegistryTestDouble implements SchemaRegistry {

    private final String schema;

    SchemaRegistryTestDouble(String schema) {
        this.schema = schema;
    }

    @Override
    public int register(String subject, String schema) {
        return 1;
    }

    @Override
    public String schemaById(int id) {
        return schema;
    }

    @Override
    public Registered latest(String subject) {
        return new Registered(1, 1, schema);
    }

    @Override
    public boolean isCompatible(String subject, String schema) {
        return true;
    }
}
