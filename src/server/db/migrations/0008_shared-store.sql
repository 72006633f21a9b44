CREATE TABLE "photo_blobs" (
	"key" text PRIMARY KEY NOT NULL,
	"data" bytea NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "server_secrets" (
	"name" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- WebP is already compressed: store it out of line without trying to compress it again.
ALTER TABLE "photo_blobs" ALTER COLUMN "data" SET STORAGE EXTERNAL;
