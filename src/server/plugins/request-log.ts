import { type FastifyBaseLogger, type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import type { Logger } from 'pino';

/**
 * The access log: one `info` line per answered request, `request completed` with the request id,
 * method, redacted URL and client address (logger.ts's `req` serializer, QUALITY 33), the status
 * and the time taken. Fastify by default writes two lines per request (`incoming request` and
 * `request completed`), each through the redaction paths, whose wildcards cost ~25 µs of CPU a
 * line. This line holds only the fields above, none of them a redaction path and the URL already
 * redacted by the serializer, so it is written by a child logger without the paths
 * (docs/performance.md, "Write path, round four"; docs/decisions/0038). A request that failed
 * after its answer began (`request errored`) and every other line Fastify writes stay as they
 * were; so does a route whose `logLevel` is above `info` (the metrics scrape).
 *
 * `attach(http.log)` once the Fastify instance exists; until then Fastify's own line is written.
 */
export function createAccessLog() {
  let access: FastifyBaseLogger | undefined;
  class AccessLogController extends LogController {
    override incomingRequest() {}
    override requestCompleted(
      error: Error | null | undefined,
      request: FastifyRequest,
      reply: FastifyReply,
      metadata?: Record<string, unknown>,
    ) {
      if (error || !access) {
        super.requestCompleted(error, request, reply, metadata);
        return;
      }
      // Fastify's logger is pino's (app.ts), whose per-request child carries the route's level.
      if (!(reply.log as Logger).isLevelEnabled('info')) return;
      access.info(
        {
          [this.requestIdLogLabel]: request.id,
          req: request,
          res: { statusCode: reply.statusCode },
          responseTime: reply.elapsedTime,
        },
        'request completed',
      );
    }
  }
  return {
    controller: new AccessLogController(),
    attach(root: FastifyBaseLogger) {
      access = root.child({}, { redact: [] });
    },
  };
}
