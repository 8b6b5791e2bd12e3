package io.kafkamv.service.statement;

import java.util.Properties;

import io.kafkamv.jobstore.JobStore;
import io.kafkamv.service.catalog.CatalogService;
import io.kafkamv.service.jobs.JobRunner;
import io.kafkamv.service.metrics.ServiceMetrics;
import io.kafkamv.service.query.QueryEngine;
import io.kafkamv.service.tables.TableWriter;
import org.apache.kafka.clients.admin.Admin;

/**
 * What statements work with: the catalog and jobs, the runner, table writes, queries and Kafka.
 *
 * @param instanceId       this service instance, recorded as the owner of its foreground jobs
 * @param topicPartitions  partitions of new table and view topics
 * @param replicationFactor replication of new topics
 */
public record ServiceContext(
    CatalogService catalog,
    JobStore store,
    JobRunner runner,
    TableWriter writer,
    QueryEngine queries,
    Admin admin,
    Properties clientProperties,
    String instanceId,
    int topicPartitions,
    short replicationFactor,
    ServiceMetrics metrics) {
}
