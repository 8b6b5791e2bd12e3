package io.kafkamv.service.jobs;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.Map;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.KafkaClientSupplier;

/**
 * The Kafka clients of a job's Kafka Streams instance: consumers and producers of its own, as Kafka Streams makes
 * them, and the service's one admin client. Kafka Streams asks its admin client for little (its internal topics at
 * a rebalance, offsets for task lag, purges of consumed exchange records), and an admin client of its own was a
 * network thread and a broker connection per view (issue 21). The shared client outlives every job: the one Kafka
 * Streams gets ignores {@code close}.
 */
final class SharedAdminClientSupplier implements KafkaClientSupplier {

    private final Admin admin;

    SharedAdminClientSupplier(Admin shared) {
        this.admin = unclosable(shared);
    }

    @Override
    public Admin getAdmin(Map<String, Object> config) {
        return admin;
    }

    @Override
    public Producer<byte[], byte[]> getProducer(Map<String, Object> config) {
        return new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer());
    }

    @Override
    public Consumer<byte[], byte[]> getConsumer(Map<String, Object> config) {
        return new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    @Override
    public Consumer<byte[], byte[]> getRestoreConsumer(Map<String, Object> config) {
        return getConsumer(config);
    }

    @Override
    public Consumer<byte[], byte[]> getGlobalConsumer(Map<String, Object> config) {
        return getConsumer(config);
    }

    /** The admin client with every call but {@code close} passed on: a proxy, as {@code Admin} has some hundred calls. */
    static Admin unclosable(Admin admin) {
        return (Admin) Proxy.newProxyInstance(Admin.class.getClassLoader(), new Class<?>[] {Admin.class},
            (proxy, method, args) -> {
                if (method.getName().equals("close")) {
                    return null;
                }
                try {
                    return method.invoke(admin, args);
                } catch (InvocationTargetException e) {
                    throw e.getCause();
                }
            });
    }
}
