-- «Entrenos abiertos»: the «¿Quién vino?» reminder (issue #35, docs/decisions/0055, amendment of
-- session 16). The session row is its own durable job, as its start reminder is (migration 0020):
-- due an hour after the end, claimed with `for update skip locked` and a lease, done once sent, so
-- it goes out once across nodes. Sessions already over when this runs count as done: nobody is
-- asked about a session that ended before the reminder existed. Re-runnable (IF NOT EXISTS).
ALTER TABLE "open_sessions" ADD COLUMN IF NOT EXISTS "attendance_reminder_claimed_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "open_sessions" ADD COLUMN IF NOT EXISTS "attendance_reminder_claim_token" uuid;--> statement-breakpoint
ALTER TABLE "open_sessions" ADD COLUMN IF NOT EXISTS "attendance_reminder_done_at" timestamp with time zone;--> statement-breakpoint
UPDATE "open_sessions" SET "attendance_reminder_done_at" = now()
WHERE "attendance_reminder_done_at" IS NULL AND "starts_at" + make_interval(mins => "duration_min") <= now();--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "open_sessions_attendance_reminder_due_idx" ON "open_sessions" USING btree ("starts_at") WHERE "attendance_reminder_done_at" is null and "status" = 'open';
