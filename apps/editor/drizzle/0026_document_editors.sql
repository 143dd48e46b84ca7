CREATE TABLE "document_editors" (
	"document_id" text NOT NULL,
	"user_id" text NOT NULL,
	"edit_seq" bigserial NOT NULL,
	CONSTRAINT "document_editors_document_id_user_id_pk" PRIMARY KEY("document_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "document_versions" ADD COLUMN "editors_seq" bigint;--> statement-breakpoint
ALTER TABLE "document_editors" ADD CONSTRAINT "document_editors_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_editors" ADD CONSTRAINT "document_editors_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;