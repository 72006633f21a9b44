-- One account-state gate for every way in (docs/decisions/0043). A pending second-step token opens
-- one session only: its id is recorded when it does.
CREATE TABLE "spent_second_step_tokens" (
	"jti" uuid PRIMARY KEY NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "spent_second_step_tokens_expires_at_idx" ON "spent_second_step_tokens" USING btree ("expires_at");
--> statement-breakpoint
-- Accounts deleted before deletion took their ways in with them: their passkeys, second-step
-- secrets, recovery codes, remembered devices and push subscriptions go now.
DELETE FROM "passkeys" WHERE "user_id" IN (SELECT "id" FROM "users" WHERE "email" LIKE '%@deleted.entreno.invalid');
--> statement-breakpoint
DELETE FROM "two_factor" WHERE "user_id" IN (SELECT "id" FROM "users" WHERE "email" LIKE '%@deleted.entreno.invalid');
--> statement-breakpoint
DELETE FROM "recovery_codes" WHERE "user_id" IN (SELECT "id" FROM "users" WHERE "email" LIKE '%@deleted.entreno.invalid');
--> statement-breakpoint
DELETE FROM "trusted_devices" WHERE "user_id" IN (SELECT "id" FROM "users" WHERE "email" LIKE '%@deleted.entreno.invalid');
--> statement-breakpoint
DELETE FROM "webauthn_challenges" WHERE "user_id" IN (SELECT "id" FROM "users" WHERE "email" LIKE '%@deleted.entreno.invalid');
--> statement-breakpoint
DELETE FROM "push_subscriptions" WHERE "user_id" IN (SELECT "id" FROM "users" WHERE "email" LIKE '%@deleted.entreno.invalid');
