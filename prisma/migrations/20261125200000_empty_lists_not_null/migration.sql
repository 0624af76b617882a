-- Raw reads (the hot paths read rows without the ORM) see what is stored: an empty list must be
-- stored as an empty array, not NULL, as the ORM already presents it.
UPDATE "Conversation" SET "queueGroupIds" = ARRAY[]::UUID[] WHERE "queueGroupIds" IS NULL;
UPDATE "Message" SET "mentions" = ARRAY[]::UUID[] WHERE "mentions" IS NULL;

-- AlterTable
ALTER TABLE "Conversation" ALTER COLUMN "queueGroupIds" SET DEFAULT ARRAY[]::UUID[];

-- AlterTable
ALTER TABLE "Message" ALTER COLUMN "mentions" SET DEFAULT ARRAY[]::UUID[];
