CREATE TABLE "agent_run_edits" (
	"run_id" text PRIMARY KEY NOT NULL,
	"edits" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "agent_run_edits" ADD CONSTRAINT "agent_run_edits_run_id_agent_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."agent_runs"("id") ON DELETE cascade ON UPDATE no action;