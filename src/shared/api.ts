import * as v from 'valibot';

/** Every error the API returns has this shape (ARCHITECTURE.md, "Contracts"). */
export const ApiErrorSchema = v.object({
  success: v.literal(false),
  message: v.string(),
  errorType: v.optional(v.string()),
});
export type ApiError = v.InferOutput<typeof ApiErrorSchema>;

export const HealthSchema = v.object({
  status: v.literal('ok'),
  database: v.picklist(['embedded', 'postgres']),
  realtime: v.picklist(['memory', 'redis']),
  /** The server's NODE_ENV: what the login preview's small badge says (PROD only in production). */
  mode: v.picklist(['production', 'development', 'test']),
});
export type Health = v.InferOutput<typeof HealthSchema>;

/** One dependency's state in the readiness answer. */
export const ReadinessCheckSchema = v.picklist(['ok', 'failing', 'pending', 'draining', 'absent']);
export type ReadinessCheck = v.InferOutput<typeof ReadinessCheckSchema>;

/**
 * `GET /api/ready`: 200 when this node can take traffic (database and Redis answer, migrations
 * applied, not shutting down), 503 otherwise with the failing checks (docs/deploy.md).
 */
export const ReadinessSchema = v.object({
  status: v.picklist(['ready', 'unavailable']),
  checks: v.object({
    database: ReadinessCheckSchema,
    migrations: ReadinessCheckSchema,
    redis: ReadinessCheckSchema,
    accepting: ReadinessCheckSchema,
  }),
});
export type Readiness = v.InferOutput<typeof ReadinessSchema>;
