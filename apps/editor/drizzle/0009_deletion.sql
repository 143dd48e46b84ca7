CREATE TABLE "deleted_runs" (
	"run_id" text PRIMARY KEY NOT NULL,
	"deleted_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "agent_runs" ADD COLUMN "logs_purged_at" timestamp with time zone;--> statement-breakpoint
-- Tool results of runs whose document was deleted before results were linked to their run: they
-- hold what the tools read (document text) and nothing refers to them any more.
DELETE FROM "hook_token_uses" WHERE "run_id" NOT IN (SELECT "id" FROM "agent_runs");--> statement-breakpoint
-- The turns step's state of such runs (a run being admitted right now has a fresh checkpoint: kept).
DELETE FROM "agent_run_checkpoints" WHERE "run_id" NOT IN (SELECT "id" FROM "agent_runs") AND "updated_at" < now() - interval '1 hour';--> statement-breakpoint
DELETE FROM "agent_run_messages" WHERE "run_id" NOT IN (SELECT "id" FROM "agent_runs") AND "run_id" NOT IN (SELECT "run_id" FROM "agent_run_checkpoints");--> statement-breakpoint
ALTER TABLE "hook_token_uses" ADD CONSTRAINT "hook_token_uses_run_id_agent_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."agent_runs"("id") ON DELETE cascade ON UPDATE no action;