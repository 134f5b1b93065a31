package io.tributary.server.pgwire;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import java.io.IOException;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Bridges one channel's event loop to its {@link PgProtocol}: every decoded frame is handed to the
 * connection's serial executor, so session work (which blocks) never runs on the event loop and
 * messages are processed in arrival order. Event-loop callbacks only.
 */
final class PgConnectionHandler extends SimpleChannelInboundHandler<PgFrame> {
    private static final Logger LOG = LoggerFactory.getLogger(PgConnectionHandler.class);

    private final PgServerContext server;
    private final Executor executor;
    private final Runnable releaseExecutor;
    private PgChannelWriter writer;
    private PgProtocol protocol;

    /**
     * @param executor runs tasks one at a time in submission order (a single thread per
     *     connection in production; tests may run them inline)
     * @param releaseExecutor called once after the final task was submitted; queued tasks must
     *     still run
     */
    PgConnectionHandler(PgServerContext server, Executor executor, Runnable releaseExecutor) {
        this.server = server;
        this.executor = executor;
        this.releaseExecutor = releaseExecutor;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        writer = new PgChannelWriter(ctx.channel());
        protocol = new PgProtocol(server, writer);
        super.channelActive(ctx);
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, PgFrame frame) {
        executor.execute(() -> protocol.handle(frame));
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        writer.wakeWaiters();
        // stops a running statement now; the cleanup below waits its turn behind it
        protocol.connectionLost();
        executor.execute(protocol::connectionClosed);
        releaseExecutor.run();
        super.channelInactive(ctx);
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) throws Exception {
        writer.wakeWaiters();
        super.channelWritabilityChanged(ctx);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (cause instanceof IOException) {
            // Clients vanishing without Terminate is routine.
            LOG.debug("connection {} failed: {}", ctx.channel().remoteAddress(), cause.toString());
        } else {
            LOG.warn("connection {} failed", ctx.channel().remoteAddress(), cause);
        }
        ctx.close();
    }
}
