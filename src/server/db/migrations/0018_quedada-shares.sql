-- «Compartir con alguien de confianza» (issue #35, docs/decisions/0054). Re-runnable (IF NOT
-- EXISTS): a test that replays an earlier migration replays this one after it.
CREATE TABLE IF NOT EXISTS "quedada_shares" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"quedada_id" uuid NOT NULL CONSTRAINT "quedada_shares_quedada_id_quedadas_id_fk" REFERENCES "public"."quedadas"("id") ON DELETE cascade ON UPDATE no action,
	"user_id" uuid NOT NULL CONSTRAINT "quedada_shares_user_id_users_id_fk" REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action,
	"token_hash" text NOT NULL,
	"client_id" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"check_in_at" timestamp with time zone,
	"check_in_answer" text,
	"answered_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "quedada_shares_token_key" ON "quedada_shares" USING btree ("token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "quedada_shares_client_key" ON "quedada_shares" USING btree ("user_id","client_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "quedada_shares_quedada_idx" ON "quedada_shares" USING btree ("quedada_id","user_id");
