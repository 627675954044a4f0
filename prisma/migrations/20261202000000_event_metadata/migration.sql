-- A conversion's own fields (revenue among them), as POST /v1/events logs them (issue 28).
ALTER TABLE "Event" ADD COLUMN "metadata" JSONB;
