package io.kafkamv.compiler.topology;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import io.kafkamv.compiler.plan.AggregateStep;
import io.kafkamv.compiler.plan.CalcStep;
import io.kafkamv.compiler.plan.JoinStep;
import io.kafkamv.compiler.plan.LookupJoinStep;
import io.kafkamv.compiler.plan.PhysicalPlan;
import io.kafkamv.compiler.plan.PlanStep;
import io.kafkamv.compiler.plan.SourceScanStep;
import io.kafkamv.compiler.plan.TableScanStep;
import io.kafkamv.compiler.plan.TopNStep;
import io.kafkamv.compiler.plan.UnionAllStep;
import io.kafkamv.compiler.plan.WindowStep;
import org.apache.kafka.streams.TopologyDescription;

/**
 * A view's topology as a graph for people: the plan's steps as operators, the topics they read and
 * write, and the state stores each step keeps. Operators come from the plan (a handful of boxes a
 * reader recognises from the SQL); stores come from the built topology, so the graph shows the stores
 * that really exist, not the ones the plan implies.
 */
public record TopologyGraph(List<Node> nodes, List<Edge> edges) {

    public enum Kind { TOPIC, OPERATOR, STORE, SINK }

    /** @param detail one line more about it: the operation, the topic's role or the sink's target */
    public record Node(String id, Kind kind, String label, String detail) {
    }

    public record Edge(String from, String to) {
    }

    public static TopologyGraph of(PhysicalPlan plan) {
        return of(plan, TopologyFactory.build(plan).describe());
    }

    static TopologyGraph of(PhysicalPlan plan, TopologyDescription description) {
        Map<String, Node> nodes = new LinkedHashMap<>();
        Set<Edge> edges = new LinkedHashSet<>();
        for (PlanStep step : plan.steps()) {
            if (step instanceof TableScanStep scan) {
                topic(nodes, scan.topic(), "table " + scan.relation());
                edges.add(new Edge(topicId(scan.topic()), step.id()));
            } else if (step instanceof SourceScanStep scan) {
                topic(nodes, scan.topic(), "source " + scan.relation());
                edges.add(new Edge(topicId(scan.topic()), step.id()));
            }
            if (step instanceof LookupJoinStep lookup) {
                topic(nodes, lookup.topic(), "table " + lookup.table() + ", looked up");
                edges.add(new Edge(topicId(lookup.topic()), step.id()));
            }
            nodes.put(step.id(), new Node(step.id(), Kind.OPERATOR, step.id(), operation(step)));
            for (String input : step.inputs()) {
                edges.add(new Edge(input, step.id()));
            }
            if (step instanceof SourceScanStep scan) {
                topic(nodes, scan.deadLetterTopic(), "dead letters of " + scan.relation());
                edges.add(new Edge(step.id(), topicId(scan.deadLetterTopic())));
            }
        }
        String root = plan.root().id();
        for (Map.Entry<String, String> store : stores(plan, description).entrySet()) {
            String id = "store:" + store.getKey();
            nodes.put(id, new Node(id, Kind.STORE, store.getKey(), "state store"));
            edges.add(new Edge(store.getValue() == null ? root : store.getValue(), id));
        }
        if (plan.sink() != null) {
            String target = plan.sink().writesToDatabase() ? plan.sink().jdbc().table() : plan.sink().topic();
            String id = "sink:" + plan.view();
            nodes.put(id, new Node(id, Kind.SINK, plan.view(),
                plan.sink().connector() + " sink to " + target + " (" + plan.sink().type().name().toLowerCase(Locale.ROOT) + ")"));
            edges.add(new Edge(root, id));
        } else if (plan.outputTopic() != null) {
            topic(nodes, plan.outputTopic(), "changes of " + plan.view());
            edges.add(new Edge(root, topicId(plan.outputTopic())));
        }
        return new TopologyGraph(List.copyOf(nodes.values()), List.copyOf(edges));
    }

    /** Each store of the topology, with the step that keeps it: the step whose id starts the name of a processor using it. */
    private static Map<String, String> stores(PhysicalPlan plan, TopologyDescription description) {
        List<String> stepIds = plan.steps().stream().map(PlanStep::id)
            .sorted(Comparator.comparingInt(String::length).reversed()).toList();
        Map<String, String> stores = new LinkedHashMap<>();
        List<TopologyDescription.Processor> processors = new ArrayList<>();
        for (TopologyDescription.Subtopology subtopology : description.subtopologies()) {
            for (TopologyDescription.Node node : subtopology.nodes()) {
                if (node instanceof TopologyDescription.Processor processor) {
                    processors.add(processor);
                }
            }
        }
        processors.sort(Comparator.comparing(TopologyDescription.Node::name));
        for (TopologyDescription.Processor processor : processors) {
            String owner = stepIds.stream()
                .filter(id -> processor.name().equals(id) || processor.name().startsWith(id + "-"))
                .findFirst().orElse(null);
            for (String store : processor.stores()) {
                // A store some step's processor uses belongs to that step, even if an unnamed one uses it too.
                if (!stores.containsKey(store) || stores.get(store) == null) {
                    stores.put(store, owner);
                }
            }
        }
        for (TopologyDescription.GlobalStore global : description.globalStores()) {
            // A looked-up table's store belongs to the step it is named after.
            global.processor().stores().forEach(store -> stores.putIfAbsent(store, stepIds.stream()
                .filter(id -> store.startsWith(id + "-")).findFirst().orElse(null)));
        }
        return stores;
    }

    private static void topic(Map<String, Node> nodes, String topic, String role) {
        nodes.putIfAbsent(topicId(topic), new Node(topicId(topic), Kind.TOPIC, topic, role));
    }

    private static String topicId(String topic) {
        return "topic:" + topic;
    }

    private static String operation(PlanStep step) {
        if (step instanceof TableScanStep scan) {
            return "scan table " + scan.relation();
        } else if (step instanceof SourceScanStep scan) {
            return "decode " + scan.format() + " source " + scan.relation();
        } else if (step instanceof CalcStep) {
            return "project and filter";
        } else if (step instanceof AggregateStep) {
            return "aggregate";
        } else if (step instanceof JoinStep join) {
            return join.kind().name().toLowerCase(Locale.ROOT).replace('_', ' ') + " join";
        } else if (step instanceof TopNStep) {
            return "top-n";
        } else if (step instanceof UnionAllStep) {
            return "union all";
        } else if (step instanceof WindowStep) {
            return "window";
        } else if (step instanceof LookupJoinStep lookup) {
            return (lookup.keepUnmatched() ? "left " : "") + "lookup join of " + lookup.table();
        }
        throw new IllegalArgumentException("unknown step " + step.getClass().getSimpleName());
    }
}
