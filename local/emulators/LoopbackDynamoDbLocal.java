// local -> DynamoDB Local listening on 127.0.0.1 only (see loopback-dynamodb-local.ts). Its command
// line has no address option and its Jetty server listens on every interface, which would put the local
// stack's data on the network: this builds the server from the same arguments, gives each connector the
// loopback host, and starts it. Before that it puts the database file in SQLite's write-ahead-log mode.
import com.almworks.sqlite4java.SQLiteConnection;
import java.io.File;
import java.lang.reflect.Field;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import software.amazon.dynamodb.services.local.main.ServerRunner;
import software.amazon.dynamodb.services.local.shared.access.sqlite.SQLiteLibraryLoader;
import software.amazon.dynamodb.services.local.server.DynamoDBProxyServer;

public class LoopbackDynamoDbLocal {
  public static void main(String[] args) throws Exception {
    useWriteAheadLog(args);
    DynamoDBProxyServer proxy = ServerRunner.createServerFromCommandLineArgs(args);
    Field field = DynamoDBProxyServer.class.getDeclaredField("server");
    field.setAccessible(true);
    Server jetty = (Server) field.get(proxy);
    for (Connector connector : jetty.getConnectors()) {
      ((ServerConnector) connector).setHost("127.0.0.1");
    }
    proxy.start();
  }

  /**
   * DynamoDB Local leaves SQLite in its default journal (a rollback file made, synced and removed at every
   * commit): about 600 history records a second on this disk. The write-ahead log syncs once per commit and
   * is as safe against a crash; it took that to about 1,100 (1,500 is DynamoDB Local's own ceiling, on
   * tmpfs). The mode is kept in the file, so setting it on a connection of our own, before DynamoDB Local
   * opens the file (it makes its tables in one it finds empty), holds for every connection it opens.
   */
  private static void useWriteAheadLog(String[] args) throws Exception {
    String dbPath = null;
    boolean shared = false;
    for (int i = 0; i < args.length; i++) {
      if (args[i].equals("-dbPath") && i + 1 < args.length) dbPath = args[i + 1];
      if (args[i].equals("-sharedDb")) shared = true;
    }
    if (dbPath == null || !shared) return;
    // DynamoDB Local's own copy of the native library, loaded as it loads it: a second copy in the same
    // JVM (sqlite4java finding the one on java.library.path first) crashes it in native code.
    SQLiteLibraryLoader.initialize();
    SQLiteConnection connection = new SQLiteConnection(new File(dbPath, "shared-local-instance.db"));
    try {
      connection.open(true);
      connection.exec("PRAGMA journal_mode=WAL");
    } finally {
      connection.dispose();
    }
  }
}
