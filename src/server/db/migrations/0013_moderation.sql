-- The moderation console (issue #23 part 3, docs/decisions/0033): roles granted by the operator
-- command, restrictions on accounts (warning, suspension, ban, the automatic review hold), one
-- appeal per restriction, the append-only audit log, and how a report was resolved.
CREATE TABLE "moderator_roles" (
	"user_id" uuid PRIMARY KEY NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
	"role" text NOT NULL CHECK ("role" IN ('moderator', 'admin')),
	"granted_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "account_restrictions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
	"kind" text NOT NULL CHECK ("kind" IN ('warning', 'suspension', 'ban', 'review_hold')),
	"reason" text NOT NULL,
	"report_id" uuid,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ends_at" timestamp with time zone,
	"lifted_at" timestamp with time zone,
	"lifted_by" uuid,
	"closed_conversation_ids" uuid[] DEFAULT '{}' NOT NULL,
	"seen_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "account_restrictions_user_idx" ON "account_restrictions" USING btree ("user_id", "created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "account_restrictions_one_hold" ON "account_restrictions" USING btree ("user_id")
	WHERE "kind" = 'review_hold' AND "lifted_at" IS NULL;--> statement-breakpoint
CREATE TABLE "moderation_appeals" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"restriction_id" uuid NOT NULL UNIQUE REFERENCES "account_restrictions"("id") ON DELETE CASCADE,
	"user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
	"text" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL CHECK ("status" IN ('open', 'upheld', 'granted')),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"resolved_at" timestamp with time zone,
	"resolved_by" uuid
);
--> statement-breakpoint
CREATE INDEX "moderation_appeals_status_idx" ON "moderation_appeals" USING btree ("status", "created_at");--> statement-breakpoint
CREATE TABLE "moderation_audit" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
	"moderator_id" uuid,
	"moderator_email" text,
	"action" text NOT NULL,
	"target_user_id" uuid,
	"report_id" uuid,
	"restriction_id" uuid,
	"appeal_id" uuid,
	"reason" text NOT NULL,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "moderation_audit_target_idx" ON "moderation_audit" USING btree ("target_user_id", "created_at");--> statement-breakpoint
CREATE INDEX "moderation_audit_created_idx" ON "moderation_audit" USING btree ("created_at");--> statement-breakpoint
-- Nobody edits the audit log: not the app, not an operator's stray UPDATE.
CREATE OR REPLACE FUNCTION "moderation_audit_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'moderation_audit is append-only (% refused)', TG_OP USING ERRCODE = 'insufficient_privilege';
END
$$;--> statement-breakpoint
CREATE TRIGGER "moderation_audit_no_update" BEFORE UPDATE OR DELETE ON "moderation_audit"
	FOR EACH ROW EXECUTE FUNCTION "moderation_audit_append_only"();--> statement-breakpoint
CREATE TRIGGER "moderation_audit_no_truncate" BEFORE TRUNCATE ON "moderation_audit"
	FOR EACH STATEMENT EXECUTE FUNCTION "moderation_audit_append_only"();--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "resolved_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "resolved_by" uuid;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "resolution" text;--> statement-breakpoint
-- Three different people reporting one profile within 24 hours take it out of every deck until a
-- moderator reviews it: a review hold (profiles.active = false, which the deck excludes). Whoever
-- inserts the report, in the same transaction; the lock serialises reports about one person.
CREATE OR REPLACE FUNCTION "reports_review_hold"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  hold_id uuid;
BEGIN
  IF NEW.reported_id IS NULL OR NEW.status <> 'open' THEN
    RETURN NULL;
  END IF;
  PERFORM pg_advisory_xact_lock(hashtext('reports_review_hold:' || NEW.reported_id::text));
  IF (SELECT count(DISTINCT r.reporter_id) FROM "reports" r
      WHERE r.reported_id = NEW.reported_id AND r.status = 'open' AND r.reporter_id IS NOT NULL
        AND r.created_at > NEW.created_at - interval '24 hours' AND r.created_at <= NEW.created_at) >= 3 THEN
    INSERT INTO "account_restrictions" ("user_id", "kind", "reason", "report_id", "created_at")
      VALUES (NEW.reported_id, 'review_hold', 'three_reports', NEW.id, NEW.created_at)
      ON CONFLICT DO NOTHING RETURNING "id" INTO hold_id;
    IF hold_id IS NOT NULL THEN
      UPDATE "profiles" SET "active" = false WHERE "user_id" = NEW.reported_id AND "active";
      INSERT INTO "moderation_audit" ("action", "target_user_id", "report_id", "restriction_id", "reason", "created_at")
        VALUES ('review_hold', NEW.reported_id, NEW.id, hold_id, 'Tres denuncias de personas distintas en 24 horas', NEW.created_at);
    END IF;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "reports_review_hold" AFTER INSERT ON "reports"
	FOR EACH ROW EXECUTE FUNCTION "reports_review_hold"();
