-- AlterTable
ALTER TABLE "User" ADD COLUMN "country" JSONB;
ALTER TABLE "User" ADD COLUMN "state" JSONB;

-- AlterTable
ALTER TABLE "Event" ADD COLUMN "region" JSONB;

