ALTER TABLE "agent_runs" ADD COLUMN "conversation" jsonb;--> statement-breakpoint
-- Runs recorded before run status had one vocabulary: "finished" covered runs that ended at the
-- turn limit or the run time limit too (their summary says which).
UPDATE "agent_runs" SET "status" = CASE
  WHEN "summary" LIKE '%(the step limit).' THEN 'limit'
  WHEN "summary" LIKE '%(the run time limit).' THEN 'timeout'
  ELSE 'done' END
WHERE "status" = 'finished';--> statement-breakpoint
UPDATE "agent_runs" SET "status" = 'failed'
WHERE "status" NOT IN ('running', 'done', 'cancelled', 'limit', 'timeout', 'failed');--> statement-breakpoint
ALTER TABLE "agent_runs" ADD CONSTRAINT "agent_runs_status_check" CHECK (status in ('running', 'done', 'cancelled', 'limit', 'timeout', 'failed'));