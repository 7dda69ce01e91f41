// DynamoDB Local on 127.0.0.1 only. Its own entry point (ServerRunner.main) gives Jetty a port and
// no host, so it listens on every interface; this starts the same server from the same command-line
// arguments, sets the host of Jetty's connector before it binds, and says when it listens, so the
// sandbox waits for its own JVM rather than for whatever answers on the port.
// Run by local/dynamodb-local.ts with Java's single-file source launcher (Java 11+ JDK).

import java.lang.reflect.Field;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import software.amazon.dynamodb.services.local.main.ServerRunner;
import software.amazon.dynamodb.services.local.server.DynamoDBProxyServer;

public final class LoopbackDynamoDBLocal {
  public static void main(String[] args) throws Exception {
    DynamoDBProxyServer proxy = ServerRunner.createServerFromCommandLineArgs(args);
    Field field = DynamoDBProxyServer.class.getDeclaredField("server");
    field.setAccessible(true);
    Server server = (Server) field.get(proxy);
    for (Connector connector : server.getConnectors()) {
      if (connector instanceof ServerConnector) ((ServerConnector) connector).setHost("127.0.0.1");
    }
    proxy.start();
    for (Connector connector : server.getConnectors()) {
      if (connector instanceof ServerConnector) {
        System.out.println("LISTENING 127.0.0.1:" + ((ServerConnector) connector).getLocalPort());
      }
    }
    System.out.flush();
    proxy.join();
  }
}
