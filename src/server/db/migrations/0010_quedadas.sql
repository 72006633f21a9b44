CREATE TABLE "quedada_actions" (
	"user_id" uuid NOT NULL,
	"client_id" text NOT NULL,
	"quedada_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "quedada_actions_user_id_client_id_pk" PRIMARY KEY("user_id","client_id")
);
--> statement-breakpoint
CREATE TABLE "quedada_jobs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"quedada_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"run_at" timestamp with time zone NOT NULL,
	"claimed_until" timestamp with time zone,
	"claim_token" uuid,
	"attempts" integer DEFAULT 0 NOT NULL,
	"done_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "quedadas" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"conversation_id" uuid NOT NULL,
	"user_a" uuid NOT NULL,
	"user_b" uuid NOT NULL,
	"proposer_id" uuid NOT NULL,
	"proposed_by" uuid NOT NULL,
	"status" text NOT NULL,
	"gym_name" text NOT NULL,
	"gym_address" text,
	"starts_at" timestamp with time zone NOT NULL,
	"duration_min" integer NOT NULL,
	"activity" text NOT NULL,
	"note" text,
	"history" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"cancelled_by" uuid,
	"is_late_cancel" boolean DEFAULT false NOT NULL,
	"confirmations" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"client_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "quedada_actions" ADD CONSTRAINT "quedada_actions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quedada_actions" ADD CONSTRAINT "quedada_actions_quedada_id_quedadas_id_fk" FOREIGN KEY ("quedada_id") REFERENCES "public"."quedadas"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quedada_jobs" ADD CONSTRAINT "quedada_jobs_quedada_id_quedadas_id_fk" FOREIGN KEY ("quedada_id") REFERENCES "public"."quedadas"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quedada_jobs" ADD CONSTRAINT "quedada_jobs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quedadas" ADD CONSTRAINT "quedadas_conversation_id_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."conversations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quedadas" ADD CONSTRAINT "quedadas_user_a_users_id_fk" FOREIGN KEY ("user_a") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quedadas" ADD CONSTRAINT "quedadas_user_b_users_id_fk" FOREIGN KEY ("user_b") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "quedada_jobs_key" ON "quedada_jobs" USING btree ("quedada_id","kind","user_id");--> statement-breakpoint
CREATE INDEX "quedada_jobs_due_idx" ON "quedada_jobs" USING btree ("run_at") WHERE "quedada_jobs"."done_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "quedadas_proposer_client_key" ON "quedadas" USING btree ("proposer_id","client_id");--> statement-breakpoint
CREATE UNIQUE INDEX "quedadas_one_active_key" ON "quedadas" USING btree ("conversation_id") WHERE "quedadas"."status" in ('proposed', 'countered', 'accepted');--> statement-breakpoint
CREATE INDEX "quedadas_user_a_idx" ON "quedadas" USING btree ("user_a","starts_at");--> statement-breakpoint
CREATE INDEX "quedadas_user_b_idx" ON "quedadas" USING btree ("user_b","starts_at");--> statement-breakpoint
CREATE INDEX "quedadas_conversation_idx" ON "quedadas" USING btree ("conversation_id","created_at");