-- «Compartir con alguien de confianza» for an open session (issue #35, docs/decisions/0054,
-- amendment of session 17): a share points at a quedada or at an open session, never both. A
-- session share's «¿Todo bien?» is a job its own row carries (`check_in_claimed_until`,
-- `check_in_claim_token`, `check_in_done_at`): claimed with `for update skip locked` and a lease,
-- done once sent, so it goes out once across nodes. A quedada share's stays a `quedada_jobs` row.
-- Re-runnable (IF NOT EXISTS): a test that replays an earlier migration replays this one after it.
ALTER TABLE "quedada_shares" ALTER COLUMN "quedada_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "quedada_shares" ADD COLUMN IF NOT EXISTS "session_id" uuid CONSTRAINT "quedada_shares_session_id_open_sessions_id_fk" REFERENCES "public"."open_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quedada_shares" ADD COLUMN IF NOT EXISTS "check_in_claimed_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "quedada_shares" ADD COLUMN IF NOT EXISTS "check_in_claim_token" uuid;--> statement-breakpoint
ALTER TABLE "quedada_shares" ADD COLUMN IF NOT EXISTS "check_in_done_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "quedada_shares" DROP CONSTRAINT IF EXISTS "quedada_shares_one_target";--> statement-breakpoint
ALTER TABLE "quedada_shares" ADD CONSTRAINT "quedada_shares_one_target" CHECK (num_nonnulls("quedada_id", "session_id") = 1);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "quedada_shares_session_idx" ON "quedada_shares" USING btree ("session_id","user_id") WHERE "session_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "quedada_shares_session_check_in_due_idx" ON "quedada_shares" USING btree ("check_in_at")
	WHERE "session_id" IS NOT NULL AND "check_in_at" IS NOT NULL AND "check_in_done_at" IS NULL;
