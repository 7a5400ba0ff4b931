ALTER TABLE "regimens" ADD COLUMN "days_per_fill" double precision;--> statement-breakpoint
ALTER TABLE "regimens" ADD COLUMN "quantity_per_fill" double precision;--> statement-breakpoint
ALTER TABLE "regimens" ADD COLUMN "repeats_allowed" integer;