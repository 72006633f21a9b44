-- Group conversations (issue #35, docs/decisions/0041 and 0056): a conversation of kind 'group' has
-- no match and no user pair, a title, an owner, N members (conversation_participants rows with
-- their own cursors) and may be closed. Its members are also listed on the conversation row
-- (`group_members`), so the send's update re-checks membership under the row lock it takes. A
-- group message has no receiver. Re-runnable (IF EXISTS / IF NOT EXISTS, constraints dropped
-- first): a test that replays an earlier migration replays this one after it.
ALTER TABLE "conversations" ALTER COLUMN "match_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "conversations" ALTER COLUMN "user_a" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "conversations" ALTER COLUMN "user_b" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "messages" ALTER COLUMN "receiver_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN IF NOT EXISTS "title" text;--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN IF NOT EXISTS "owner_id" uuid;--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN IF NOT EXISTS "group_members" uuid[];--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN IF NOT EXISTS "closed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "conversation_participants" ADD COLUMN IF NOT EXISTS "left_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "conversation_participants" ADD COLUMN IF NOT EXISTS "left_reason" text;--> statement-breakpoint
ALTER TABLE "conversations" DROP CONSTRAINT IF EXISTS "conversations_owner_id_users_id_fk";--> statement-breakpoint
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversations" DROP CONSTRAINT IF EXISTS "conversations_kind_check";--> statement-breakpoint
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_kind_check" CHECK (
  ("kind" = 'match' AND "match_id" IS NOT NULL AND "user_a" IS NOT NULL AND "user_b" IS NOT NULL)
  OR ("kind" = 'group' AND "match_id" IS NULL AND "user_a" IS NULL AND "user_b" IS NULL
    AND "title" IS NOT NULL AND "group_members" IS NOT NULL));--> statement-breakpoint
ALTER TABLE "conversation_participants" DROP CONSTRAINT IF EXISTS "conversation_participants_left_reason_check";--> statement-breakpoint
ALTER TABLE "conversation_participants" ADD CONSTRAINT "conversation_participants_left_reason_check" CHECK (
  ("left_at" IS NULL AND "left_reason" IS NULL) OR ("left_at" IS NOT NULL AND "left_reason" IN ('left', 'removed')));
