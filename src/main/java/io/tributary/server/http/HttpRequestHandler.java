package io.tributary.server.http;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.tributary.catalog.Catalog;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One HTTP connection's requests: checks access on the event loop (cheap without a password),
 * then runs the route on the worker pool and writes the reply from there. A failure of the route
 * is logged and answered with 500 naming no internals; the connection and the server go on.
 */
final class HttpRequestHandler extends SimpleChannelInboundHandler<FullHttpRequest> {
    private static final Logger LOG = LoggerFactory.getLogger(HttpRequestHandler.class);

    private final HttpAccess access;
    private final HttpRoutes routes;
    private final ExecutorService workers;

    HttpRequestHandler(HttpAccess access, HttpRoutes routes, ExecutorService workers) {
        this.access = access;
        this.routes = routes;
        this.workers = workers;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
        boolean keepAlive = HttpUtil.isKeepAlive(request);
        String method = request.method().name();
        QueryStringDecoder uri = new QueryStringDecoder(request.uri());
        String path = uri.path();
        List<String> databaseParam = uri.parameters().get("database");
        String database = databaseParam == null || databaseParam.isEmpty() ? Catalog.DATABASE : databaseParam.get(0);
        String accept = request.headers().get(HttpHeaderNames.ACCEPT);
        String action = request.headers().get(HttpRoutes.ACTION_HEADER);
        String authorization = request.headers().get(HttpHeaderNames.AUTHORIZATION);
        boolean head = request.method().equals(HttpMethod.HEAD);
        InetSocketAddress peer = (InetSocketAddress) ctx.channel().remoteAddress();
        try {
            workers.execute(() -> {
                HttpRoutes.Reply reply;
                // a password check costs a PBKDF2, so it runs here rather than on the event loop
                HttpAccess.Verdict verdict = access.check(peer.getAddress(), authorization);
                if (verdict == HttpAccess.Verdict.ALLOWED) {
                    try {
                        reply = routes.handle(method, path, database, accept, action);
                    } catch (RuntimeException e) {
                        LOG.error("HTTP {} {} failed", method, path, e);
                        reply = routes.error(new ApiError(500, "XX000", "internal error; see the server log"));
                    }
                } else if (verdict == HttpAccess.Verdict.UNAUTHORIZED) {
                    reply = routes.error(new ApiError(401, "28P01", "password authentication failed"));
                } else {
                    reply = routes.error(new ApiError(
                            403, "28000", "without --password the HTTP port serves only loopback clients"));
                }
                write(ctx, reply, keepAlive, head, verdict == HttpAccess.Verdict.UNAUTHORIZED);
            });
        } catch (RejectedExecutionException e) {
            ctx.close(); // the server is shutting down
        }
    }

    private static void write(
            ChannelHandlerContext ctx, HttpRoutes.Reply reply, boolean keepAlive, boolean head, boolean challenge) {
        FullHttpResponse response = new DefaultFullHttpResponse(
                HttpVersion.HTTP_1_1,
                HttpResponseStatus.valueOf(reply.status()),
                head ? Unpooled.EMPTY_BUFFER : Unpooled.wrappedBuffer(reply.body()));
        response.headers()
                .set(HttpHeaderNames.CONTENT_TYPE, reply.contentType())
                .set(HttpHeaderNames.CONTENT_LENGTH, reply.body().length)
                .set(HttpHeaderNames.CACHE_CONTROL, HttpHeaderValues.NO_STORE);
        if (challenge) {
            response.headers().set(HttpHeaderNames.WWW_AUTHENTICATE, "Basic realm=\"Tributary\", charset=\"UTF-8\"");
        }
        if (keepAlive) {
            response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
            ctx.writeAndFlush(response);
        } else {
            ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        // a client that went away or sent garbage: drop the connection, nothing else
        LOG.debug("HTTP connection failed", cause);
        ctx.close();
    }
}
