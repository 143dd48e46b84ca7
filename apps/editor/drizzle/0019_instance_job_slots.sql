CREATE TABLE "instance_job_slots" (
	"instance_id" text PRIMARY KEY NOT NULL,
	"slots" integer NOT NULL,
	"seen_at" timestamp with time zone NOT NULL
);
