-- «Entrenos abiertos» (issue #35, docs/decisions/0055). Re-runnable (IF NOT EXISTS): a test that
-- replays an earlier migration replays this one after it.
CREATE TABLE IF NOT EXISTS "open_sessions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"host_id" uuid NOT NULL CONSTRAINT "open_sessions_host_id_users_id_fk" REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action,
	"client_id" text NOT NULL,
	"gym_name" text NOT NULL,
	"gym_address" text,
	"latitude" double precision NOT NULL,
	"longitude" double precision NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"duration_min" integer NOT NULL,
	"activity" text NOT NULL,
	"level" text NOT NULL,
	"places" integer NOT NULL,
	"note" text,
	"visibility" text NOT NULL,
	"approval" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"conversation_id" uuid CONSTRAINT "open_sessions_conversation_id_conversations_id_fk" REFERENCES "public"."conversations"("id") ON DELETE set null ON UPDATE no action,
	"removed_by" uuid,
	"reminder_at" timestamp with time zone,
	"reminder_claimed_until" timestamp with time zone,
	"reminder_claim_token" uuid,
	"reminder_done_at" timestamp with time zone,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "open_sessions_places_check" CHECK ("places" between 1 and 7)
);
--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "open_sessions_host_client_key" ON "open_sessions" USING btree ("host_id","client_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "open_sessions_nearby_idx" ON "open_sessions" USING btree ("latitude","longitude","starts_at") WHERE "status" = 'open';--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "open_sessions_reminder_due_idx" ON "open_sessions" USING btree ("reminder_at") WHERE "reminder_done_at" is null and "status" = 'open';--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "open_sessions_host_idx" ON "open_sessions" USING btree ("host_id","starts_at");--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "open_session_members" (
	"session_id" uuid NOT NULL CONSTRAINT "open_session_members_session_id_open_sessions_id_fk" REFERENCES "public"."open_sessions"("id") ON DELETE cascade ON UPDATE no action,
	"user_id" uuid NOT NULL CONSTRAINT "open_session_members_user_id_users_id_fk" REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action,
	"state" text NOT NULL,
	"message" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "open_session_members_pk" PRIMARY KEY ("session_id","user_id")
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "open_session_members_user_idx" ON "open_session_members" USING btree ("user_id","state");--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "open_session_actions" (
	"user_id" uuid NOT NULL CONSTRAINT "open_session_actions_user_id_users_id_fk" REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action,
	"client_id" text NOT NULL,
	"session_id" uuid NOT NULL CONSTRAINT "open_session_actions_session_id_open_sessions_id_fk" REFERENCES "public"."open_sessions"("id") ON DELETE cascade ON UPDATE no action,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "open_session_actions_pk" PRIMARY KEY ("user_id","client_id")
);
