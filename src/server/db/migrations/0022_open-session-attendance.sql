-- «Entrenos abiertos», after the session (issue #35, docs/decisions/0055, amendment of session 15):
-- «¿Quién vino?» marks, one row per (session, marker, subject), and the session a repeat was made
-- from («Repetir la próxima semana»: its approved members are invited). Re-runnable (IF NOT EXISTS).
CREATE TABLE IF NOT EXISTS "open_session_attendance" (
	"session_id" uuid NOT NULL CONSTRAINT "open_session_attendance_session_id_open_sessions_id_fk" REFERENCES "public"."open_sessions"("id") ON DELETE cascade ON UPDATE no action,
	"marker_id" uuid NOT NULL CONSTRAINT "open_session_attendance_marker_id_users_id_fk" REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action,
	"subject_id" uuid NOT NULL CONSTRAINT "open_session_attendance_subject_id_users_id_fk" REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action,
	"came" boolean NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "open_session_attendance_pk" PRIMARY KEY ("session_id","marker_id","subject_id"),
	CONSTRAINT "open_session_attendance_not_self_check" CHECK ("marker_id" <> "subject_id")
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "open_session_attendance_subject_idx" ON "open_session_attendance" USING btree ("subject_id","session_id");--> statement-breakpoint
ALTER TABLE "open_sessions" ADD COLUMN IF NOT EXISTS "repeat_of" uuid CONSTRAINT "open_sessions_repeat_of_open_sessions_id_fk" REFERENCES "public"."open_sessions"("id") ON DELETE set null ON UPDATE no action;
