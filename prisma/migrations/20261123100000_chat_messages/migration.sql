-- Chat, messages and the rest of the server half: edit/remove change numbers, mentions until read,
-- what a removed participant may still see, reply quotes, shared files, notes.

-- AlterTable
ALTER TABLE "Conversation" ADD COLUMN     "lastChangeSeq" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "Message" ADD COLUMN     "changeSeq" INTEGER NOT NULL DEFAULT 0;

-- AlterTable: mencionado becomes the number of the latest mention (mentioned = mentionSeq > readSeq)
ALTER TABLE "Participant" ADD COLUMN     "mentionSeq" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "removedAtSeq" INTEGER;
UPDATE "Participant" p SET "mentionSeq" = c."lastSeq" FROM "Conversation" c WHERE c."id" = p."conversationId" AND p."mentioned";
UPDATE "Participant" p SET "removedAtSeq" = c."lastSeq" FROM "Conversation" c WHERE c."id" = p."conversationId" AND p."removed";
ALTER TABLE "Participant" DROP COLUMN "mentioned";

-- CreateTable
CREATE TABLE "ConversationNote" (
    "id" UUID NOT NULL,
    "conversationId" UUID NOT NULL,
    "authorId" UUID,
    "text" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "editedAt" TIMESTAMP(3),

    CONSTRAINT "ConversationNote_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ConversationNote_conversationId_createdAt_idx" ON "ConversationNote"("conversationId", "createdAt");

-- CreateIndex
CREATE INDEX "Message_conversationId_changeSeq_idx" ON "Message"("conversationId", "changeSeq");

-- CreateIndex
CREATE INDEX "Message_fileKey_idx" ON "Message"("fileKey");

-- AddForeignKey (replies to messages that no longer exist lose their link first)
UPDATE "Message" m SET "replyToId" = NULL WHERE "replyToId" IS NOT NULL AND NOT EXISTS (SELECT 1 FROM "Message" o WHERE o."id" = m."replyToId");
ALTER TABLE "Message" ADD CONSTRAINT "Message_replyToId_fkey" FOREIGN KEY ("replyToId") REFERENCES "Message"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ConversationNote" ADD CONSTRAINT "ConversationNote_conversationId_fkey" FOREIGN KEY ("conversationId") REFERENCES "Conversation"("id") ON DELETE CASCADE ON UPDATE CASCADE;
