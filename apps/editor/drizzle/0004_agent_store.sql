CREATE TABLE "agent_run_checkpoints" (
	"run_id" text PRIMARY KEY NOT NULL,
	"state" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "agent_tool_results" (
	"run_id" text NOT NULL,
	"tool_call_id" text NOT NULL,
	"result" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "agent_tool_results_run_id_tool_call_id_pk" PRIMARY KEY("run_id","tool_call_id")
);
