-- A message is one row, every count is a cursor (docs/decisions/0041). Moves the derived state
-- (participants' unread counters, per-message read/delivered marks, the per-user change log and
-- the after-ack delivery rows) to cursors on the members' rows, then drops what they replace.
-- Every participant row exists afterwards; the unread counts derived from the cursors equal the
-- stored ones when each member's read messages were a prefix of the conversation (always so in
-- the app, which reads up to a message).
ALTER TABLE "conversations" ADD COLUMN "kind" text DEFAULT 'match' NOT NULL;--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "changed_xid" xid8 DEFAULT pg_current_xact_id() NOT NULL;--> statement-breakpoint
ALTER TABLE "conversations" SET (fillfactor = 80);--> statement-breakpoint
ALTER TABLE "conversation_participants" ADD COLUMN "delivered_seq" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "conversation_participants" ADD COLUMN "notified_seq" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "conversation_participants" ADD COLUMN "changed_xid" xid8 DEFAULT pg_current_xact_id() NOT NULL;--> statement-breakpoint
ALTER TABLE "conversation_participants" ADD COLUMN "receipt_xid" xid8 DEFAULT pg_current_xact_id() NOT NULL;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "xid" xid8 DEFAULT pg_current_xact_id() NOT NULL;--> statement-breakpoint
INSERT INTO "conversation_participants" ("conversation_id", "user_id", "updated_at")
SELECT c."id", u."user_id", c."updated_at" FROM "conversations" c
CROSS JOIN LATERAL (VALUES (c."user_a"), (c."user_b")) AS u("user_id")
ON CONFLICT DO NOTHING;--> statement-breakpoint
UPDATE "conversation_participants" p SET
  "last_read_seq" = coalesce((SELECT min(m."seq") - 1 FROM "messages" m
    WHERE m."conversation_id" = p."conversation_id" AND m."receiver_id" = p."user_id" AND m."read_at" IS NULL), c."last_seq"),
  "delivered_seq" = coalesce((SELECT min(m."seq") - 1 FROM "messages" m
    WHERE m."conversation_id" = p."conversation_id" AND m."receiver_id" = p."user_id"
      AND m."delivered_at" IS NULL AND m."read_at" IS NULL), c."last_seq"),
  "notified_seq" = coalesce((SELECT min(m."seq") - 1 FROM "messages" m
    JOIN "chat_deliveries" d ON d."message_id" = m."id"
    WHERE m."conversation_id" = p."conversation_id" AND m."receiver_id" = p."user_id"), c."last_seq")
FROM "conversations" c WHERE c."id" = p."conversation_id";--> statement-breakpoint
ALTER TABLE "conversation_participants" DROP COLUMN "unread_count";--> statement-breakpoint
DROP INDEX IF EXISTS "messages_unread_idx";--> statement-breakpoint
ALTER TABLE "messages" DROP COLUMN "read_at";--> statement-breakpoint
ALTER TABLE "messages" DROP COLUMN "delivered_at";--> statement-breakpoint
DROP TABLE "chat_deliveries";--> statement-breakpoint
DROP TABLE "user_changes";--> statement-breakpoint
DROP TABLE "sync_counters";
