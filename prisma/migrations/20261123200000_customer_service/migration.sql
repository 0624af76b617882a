-- AlterTable
ALTER TABLE "Conversation" ADD COLUMN     "concludedAt" TIMESTAMP(3),
ADD COLUMN     "inQueue" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "linkedConversationId" UUID,
ADD COLUMN     "queueGroupIds" UUID[],
ADD COLUMN     "queueId" UUID,
ADD COLUMN     "queueName" TEXT,
ADD COLUMN     "queueUserId" UUID,
ADD COLUMN     "queuedAt" TIMESTAMP(3),
ADD COLUMN     "rating" INTEGER,
ADD COLUMN     "responsibleId" UUID,
ADD COLUMN     "slaAccepted" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "slaDueAt" TIMESTAMP(3),
ADD COLUMN     "slaOfferDate" TIMESTAMP(3),
ADD COLUMN     "slaProposalMessageId" UUID,
ADD COLUMN     "slaProposalOpen" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "tags" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN     "takenAt" TIMESTAMP(3),
ADD COLUMN     "takenById" UUID;

-- AlterTable
ALTER TABLE "Participant" ADD COLUMN     "emailedAt" TIMESTAMP(3);

-- CreateTable
CREATE TABLE "TimesheetEntry" (
    "id" UUID NOT NULL,
    "companyId" UUID NOT NULL,
    "conversationId" UUID NOT NULL,
    "userId" UUID NOT NULL,
    "startedAt" TIMESTAMP(3) NOT NULL,
    "minutes" INTEGER NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "TimesheetEntry_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "QueueAlarm" (
    "companyId" UUID NOT NULL,
    "lastAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "QueueAlarm_pkey" PRIMARY KEY ("companyId")
);

-- CreateIndex
CREATE INDEX "TimesheetEntry_conversationId_startedAt_idx" ON "TimesheetEntry"("conversationId", "startedAt");

-- CreateIndex
CREATE INDEX "TimesheetEntry_companyId_userId_idx" ON "TimesheetEntry"("companyId", "userId");

-- CreateIndex
CREATE INDEX "Conversation_companyId_inQueue_queuedAt_idx" ON "Conversation"("companyId", "inQueue", "queuedAt");

-- CreateIndex
CREATE INDEX "Conversation_companyId_responsibleId_idx" ON "Conversation"("companyId", "responsibleId");

-- AddForeignKey
ALTER TABLE "Conversation" ADD CONSTRAINT "Conversation_queueId_fkey" FOREIGN KEY ("queueId") REFERENCES "Queue"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TimesheetEntry" ADD CONSTRAINT "TimesheetEntry_conversationId_fkey" FOREIGN KEY ("conversationId") REFERENCES "Conversation"("id") ON DELETE CASCADE ON UPDATE CASCADE;

