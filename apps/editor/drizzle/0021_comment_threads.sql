CREATE TABLE "comment_threads" (
	"document_id" text NOT NULL,
	"thread_id" text NOT NULL,
	"status" text NOT NULL,
	"mentioned_user_ids" text[] DEFAULT '{}' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "comment_threads_document_id_thread_id_pk" PRIMARY KEY("document_id","thread_id")
);
--> statement-breakpoint
ALTER TABLE "comment_threads" ADD CONSTRAINT "comment_threads_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "comment_threads_open_idx" ON "comment_threads" USING btree ("document_id","status");