CREATE TABLE "document_invitations" (
	"id" text PRIMARY KEY NOT NULL,
	"document_id" text NOT NULL,
	"email" text NOT NULL,
	"role" text NOT NULL,
	"invited_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "document_invitations" ADD CONSTRAINT "document_invitations_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_invitations" ADD CONSTRAINT "document_invitations_invited_by_users_id_fk" FOREIGN KEY ("invited_by") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "document_invitations_document_email_idx" ON "document_invitations" USING btree ("document_id","email");--> statement-breakpoint
CREATE INDEX "document_invitations_email_idx" ON "document_invitations" USING btree ("email");