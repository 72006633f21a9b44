-- Reports of an open session and of a group chat's message or member (issue #35, docs/decisions/0056,
-- amendment of session 17): what the report is about besides the person, a copy of the reported
-- message as it read when reported (evidence that outlives an edit or the author's deletion), and
-- the reporter's clientId, so an outbox replay stores one report. Re-runnable (IF NOT EXISTS).
ALTER TABLE "reports" ADD COLUMN IF NOT EXISTS "open_session_id" uuid;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN IF NOT EXISTS "message_id" uuid;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN IF NOT EXISTS "message_text" text;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN IF NOT EXISTS "client_id" text;--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "reports_reporter_client_key" ON "reports" USING btree ("reporter_id","client_id")
	WHERE "client_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "reports_open_session_idx" ON "reports" USING btree ("open_session_id")
	WHERE "open_session_id" IS NOT NULL;
