import * as v from 'valibot';

/**
 * A text or e-mail the server would have sent, kept for people trying the app without an SMS
 * provider or SMTP server (`GET /api/dev/outbox`, the page `/dev/outbox`). Never in production.
 */
export const OutboxEntrySchema = v.object({
  id: v.number(),
  channel: v.picklist(['sms', 'email']),
  /** E.164 phone or lower-cased e-mail address. */
  to: v.string(),
  subject: v.nullable(v.string()),
  text: v.string(),
  html: v.nullable(v.string()),
  /** The SMS code, when the message carries one. */
  code: v.nullable(v.string()),
  /** The link, when the message carries one (password reset). */
  link: v.nullable(v.string()),
  /** ISO timestamp. */
  createdAt: v.string(),
});
export type OutboxEntry = v.InferOutput<typeof OutboxEntrySchema>;

/** `GET /api/dev/outbox[?to=]`: newest first. */
export const OutboxResponseSchema = v.object({ success: v.literal(true), data: v.array(OutboxEntrySchema) });
export type OutboxResponse = v.InferOutput<typeof OutboxResponseSchema>;

export const OutboxQuerySchema = v.strictObject({ to: v.optional(v.pipe(v.string(), v.maxLength(254))) });
