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
  database: v.picklist(['pglite', 'postgres']),
  realtime: v.picklist(['memory', 'redis']),
});
export type Health = v.InferOutput<typeof HealthSchema>;
