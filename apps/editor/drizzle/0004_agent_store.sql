CREATE TABLE "agent_run_checkpoints" (
	"run_id" text PRIMARY KEY NOT NULL,
	"segment" integer NOT NULL,
	"state" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "agent_run_messages" (
	"run_id" text NOT NULL,
	"segment" integer NOT NULL,
	"seq" integer NOT NULL,
	"message" jsonb NOT NULL,
	CONSTRAINT "agent_run_messages_run_id_segment_seq_pk" PRIMARY KEY("run_id","segment","seq")
);
--> statement-breakpoint
ALTER TABLE "hook_token_uses" ADD COLUMN "result" jsonb;