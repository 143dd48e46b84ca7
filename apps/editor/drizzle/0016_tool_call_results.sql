ALTER TABLE "hook_token_uses" RENAME TO "tool_call_results";--> statement-breakpoint
ALTER TABLE "tool_call_results" DROP CONSTRAINT "hook_token_uses_run_id_agent_runs_id_fk";
--> statement-breakpoint
DROP INDEX "hook_token_uses_call_idx";--> statement-breakpoint
ALTER TABLE "tool_call_results" ADD CONSTRAINT "tool_call_results_run_id_agent_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."agent_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "tool_call_results_call_idx" ON "tool_call_results" USING btree ("run_id","tool_call_id");