package io.tributary.server.pgwire;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.util.concurrent.GlobalEventExecutor;
import io.tributary.server.session.SessionFactory;
import java.net.InetSocketAddress;
import java.security.SecureRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A PostgreSQL wire protocol (3.0) server in front of a {@link SessionFactory}. Each connection
 * gets its own session thread, like PostgreSQL's process per connection, so a blocking statement
 * holds up only its own client.
 *
 * <p>Lifecycle: the embedding application (the server's main or a test) constructs it, calls
 * {@link #start()} once and {@link #close()} once, from any single thread. {@link #port()} is valid
 * after {@code start()}.
 */
public final class PgServer implements AutoCloseable {
    /** Largest accepted client message; PostgreSQL allows 1 GB, we refuse earlier to bound memory. */
    static final int MAX_MESSAGE_LENGTH = 64 << 20;

    private final String host;
    private final int requestedPort;
    private final PgServerContext context;
    private final AtomicInteger sessionThreads = new AtomicInteger();
    private EventLoopGroup bossGroup;
    private EventLoopGroup workerGroup;
    private ChannelGroup channels;
    private Channel serverChannel;

    /**
     * @param host the listen address, e.g. "0.0.0.0" or "127.0.0.1"
     * @param port the TCP port, 0 for any free port
     * @param password the password clients must prove with SCRAM-SHA-256, or null to trust everyone
     */
    public PgServer(String host, int port, SessionFactory sessionFactory, String password) {
        this(
                host,
                port,
                sessionFactory,
                password == null ? null : ScramCredentials.derive(password, new SecureRandom()),
                StatementObserver.NONE);
    }

    /**
     * @param credentials the SCRAM secret clients must prove, or null to trust everyone; the
     *     server's HTTP side checks passwords against the same one
     * @param observer hears how every statement ended (metrics)
     */
    public PgServer(
            String host,
            int port,
            SessionFactory sessionFactory,
            ScramCredentials credentials,
            StatementObserver observer) {
        this.host = host;
        this.requestedPort = port;
        SecureRandom random = new SecureRandom();
        this.context =
                new PgServerContext(sessionFactory, credentials, new PgBackendRegistry(random), random, observer);
    }

    /**
     * Binds the port and starts accepting connections; returns once bound.
     *
     * @throws IllegalStateException when the address cannot be bound; its message names the
     *     address and the reason (e.g. "Address already in use")
     */
    public void start() {
        bossGroup = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        workerGroup = new MultiThreadIoEventLoopGroup(NioIoHandler.newFactory());
        channels = new DefaultChannelGroup("pgwire", GlobalEventExecutor.INSTANCE);
        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(bossGroup, workerGroup)
                .channel(NioServerSocketChannel.class)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        channels.add(ch);
                        ExecutorService sessionThread = Executors.newSingleThreadExecutor(r -> {
                            Thread t = new Thread(r, "pgwire-session-" + sessionThreads.incrementAndGet());
                            t.setDaemon(true);
                            return t;
                        });
                        ch.pipeline()
                                .addLast(
                                        new PgFrameDecoder(MAX_MESSAGE_LENGTH),
                                        new PgConnectionHandler(context, sessionThread, sessionThread::shutdown));
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
                    "cannot listen on " + host + ":" + requestedPort + ": " + e.getMessage(), e);
        }
    }

    /** The bound port; meaningful after {@link #start()}. */
    public int port() {
        return ((InetSocketAddress) serverChannel.localAddress()).getPort();
    }

    /**
     * Stops accepting, closes every client connection (their sessions are closed on their session
     * threads) and shuts the event loops down, waiting for them. Idempotent.
     */
    @Override
    public void close() {
        if (serverChannel != null) {
            serverChannel.close().syncUninterruptibly();
            serverChannel = null;
        }
        if (channels != null) {
            channels.close().awaitUninterruptibly();
        }
        if (bossGroup != null) {
            bossGroup.shutdownGracefully(0, 5, TimeUnit.SECONDS).syncUninterruptibly();
            workerGroup.shutdownGracefully(0, 5, TimeUnit.SECONDS).syncUninterruptibly();
            bossGroup = null;
            workerGroup = null;
        }
    }
}
