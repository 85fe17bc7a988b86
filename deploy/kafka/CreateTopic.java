// Creates one topic on a running broker and waits until every partition has a leader.
// Run by `broker.sh topic` through Java's single-file source launcher on the broker
// classpath (kcat cannot create topics):
//   java -cp 'LIBS/*' CreateTopic.java BOOTSTRAP NAME PARTITIONS [compact|KEY=VALUE]...
// `compact` is short for the settings under which the cleaner compacts within about a
// second (with the broker's log.cleaner.backoff.ms=500): cleanup.policy=compact, segment.ms=100,
// min.cleanable.dirty.ratio=0.01, delete.retention.ms=100. Exit 0 on success, 1 with a
// message on stderr otherwise (an existing topic is an error).
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartitionInfo;

public class CreateTopic {
  public static void main(String[] args) throws Exception {
    if (args.length < 3) {
      fail("usage: CreateTopic BOOTSTRAP NAME PARTITIONS [compact|KEY=VALUE]...");
    }
    String bootstrap = args[0];
    String name = args[1];
    int partitions = 0;
    try {
      partitions = Integer.parseInt(args[2]);
    } catch (NumberFormatException e) {
      fail("PARTITIONS must be a positive integer, got '" + args[2] + "'");
    }
    if (partitions < 1) {
      fail("PARTITIONS must be a positive integer, got '" + args[2] + "'");
    }
    Map<String, String> configs = new HashMap<>();
    for (int i = 3; i < args.length; ++i) {
      if (args[i].equals("compact")) {
        configs.put("cleanup.policy", "compact");
        configs.put("segment.ms", "100");
        configs.put("min.cleanable.dirty.ratio", "0.01");
        configs.put("delete.retention.ms", "100");
      } else if (args[i].indexOf('=') > 0) {
        int eq = args[i].indexOf('=');
        configs.put(args[i].substring(0, eq), args[i].substring(eq + 1));
      } else {
        fail("topic setting '" + args[i] + "' is neither 'compact' nor KEY=VALUE");
      }
    }

    Properties props = new Properties();
    props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "30000");
    try (Admin admin = Admin.create(props)) {
      NewTopic topic = new NewTopic(name, partitions, (short) 1).configs(configs);
      try {
        admin.createTopics(List.of(topic)).all().get(30, TimeUnit.SECONDS);
      } catch (ExecutionException e) {
        fail("creating topic '" + name + "' failed: " + e.getCause().getMessage());
      }
      // The controller has the topic; wait until the broker serves every partition.
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (true) {
        try {
          TopicDescription d =
              admin.describeTopics(List.of(name)).allTopicNames().get().get(name);
          boolean led = d.partitions().size() == partitions;
          for (TopicPartitionInfo p : d.partitions()) {
            led = led && p.leader() != null && !p.leader().isEmpty();
          }
          if (led) {
            break;
          }
        } catch (ExecutionException e) {
          // not visible in metadata yet
        }
        if (System.nanoTime() > deadline) {
          fail("topic '" + name + "' has no leader for every partition after 30 s");
        }
        Thread.sleep(100);
      }
    }
    System.out.println(name);
  }

  private static void fail(String message) {
    System.err.println("CreateTopic: " + message);
    System.exit(1);
  }
}
