CREATE TABLE "damaged_document_copies" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"document_id" text NOT NULL,
	"snapshot" "bytea",
	"updates" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "last_good_snapshot" "bytea";--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "last_good_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "damaged_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "damaged_document_copies" ADD CONSTRAINT "damaged_document_copies_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "damaged_document_copies_document_idx" ON "damaged_document_copies" USING btree ("document_id");