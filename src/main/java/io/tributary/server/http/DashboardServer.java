package io.tributary.server.http;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.util.concurrent.GlobalEventExecutor;
import io.tributary.meta.Cluster;
import io.tributary.meta.Database;
import io.tributary.server.pgwire.ScramCredentials;
import io.tributary.server.session.SessionFactory;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * The server's HTTP listener ({@code --http-port}): the dashboard at {@code /}, Prometheus
 * metrics at {@code /metrics} and the JSON API under {@code /api}. Netty's HTTP codec on one
 * event loop thread; requests run on two worker threads, so a cancel waiting for its epoch does
 * not hold up a scrape.
 *
 * <p>It shows every database the server holds: the API's endpoints take {@code ?database=NAME}
 * ({@code dev} when absent) and {@code /api/databases} lists them.
 *
 * <p>Lifecycle: the server's main constructs it after the databases and the {@link EngineMeters},
 * calls {@link #start()} once and {@link #close()} once; {@link #port()} is valid after start.
 */
public final class DashboardServer implements AutoCloseable {
    /** Largest request accepted: the API takes no bodies, so a small bound suffices. */
    private static final int MAX_REQUEST_BYTES = 64 << 10;

    private final String host;
    private final int requestedPort;
    private final HttpAccess access;
    private final HttpRoutes routes;
    private final DatabaseBoards boards;
    private final AtomicInteger workerThreads = new AtomicInteger();
    private final ExecutorService workers = Executors.newFixedThreadPool(2, r -> {
        Thread t = new Thread(r, "http-worker-" + workerThreads.incrementAndGet());
        t.setDaemon(true);
        return t;
    });
    private EventLoopGroup group;
    private ChannelGroup channels;
    private Channel serverChannel;

    /**
     * @param host the listen address, as pgwire's
     * @param port the TCP port, 0 for any free port
     * @param databases the open databases in listing order, asked once a second and when a request
     *     names one not seen yet (the server's main lists its cluster's)
     * @param sessions opens the session a cancel runs {@code CANCEL JOBS} in
     * @param credentials the server's password verifier, or null: then only loopback clients are served
     */
    public DashboardServer(
            String host,
            int port,
            Supplier<List<Database>> databases,
            SessionFactory sessions,
            ScramCredentials credentials,
            EngineMeters meters) {
        this.host = host;
        this.requestedPort = port;
        this.access = new HttpAccess(credentials);
        this.boards = new DatabaseBoards(databases, sessions);
        this.routes = new HttpRoutes(boards, meters);
    }

    /** The open databases of {@code cluster} in name order, as the dashboard lists them. */
    public static Supplier<List<Database>> databasesOf(Cluster cluster) {
        return () -> cluster.list().stream()
                .flatMap(e -> cluster.database(e.name()).stream())
                .toList();
    }

    /**
     * Binds the port, starts accepting and starts sampling rates; returns once bound.
     *
     * @throws IllegalStateException when the address cannot be bound, naming it and the reason
     */
    public void start() {
        group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        channels = new DefaultChannelGroup("http", GlobalEventExecutor.INSTANCE);
        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(group)
                .channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        channels.add(ch);
                        ch.pipeline()
                                .addLast(
                                        new HttpServerCodec(),
                                        new HttpObjectAggregator(MAX_REQUEST_BYTES),
                                        new HttpRequestHandler(access, routes, workers));
                    }
                });
        try {
            serverChannel = bootstrap
                    .bind(new InetSocketAddress(host, requestedPort))
                    .sync()
                    .channel();
        } catch (Exception e) {
            close();
            throw new IllegalStateException(
                    "cannot listen for HTTP on " + host + ":" + requestedPort + ": " + e.getMessage(), e);
        }
        boards.start();
    }

    /** The bound port; meaningful after {@link #start()}. */
    public int port() {
        return ((InetSocketAddress) serverChannel.localAddress()).getPort();
    }

    /** Stops accepting, closes the connections and stops the workers and the sampler. Idempotent. */
    @Override
    public void close() {
        boards.close();
        if (serverChannel != null) {
            serverChannel.close().syncUninterruptibly();
            serverChannel = null;
        }
        if (channels != null) {
            channels.close().awaitUninterruptibly();
        }
        workers.shutdownNow();
        if (group != null) {
            group.shutdownGracefully(0, 5, TimeUnit.SECONDS).syncUninterruptibly();
            group = null;
        }
    }
}
