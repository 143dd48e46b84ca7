ALTER TABLE "agent_runs" ADD COLUMN "executor" text DEFAULT 'tab' NOT NULL;--> statement-breakpoint
ALTER TABLE "agent_runs" ADD COLUMN "thread_id" text;--> statement-breakpoint
ALTER TABLE "agent_runs" ADD CONSTRAINT "agent_runs_executor_check" CHECK (executor in ('tab', 'server'));