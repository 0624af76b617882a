-- CreateTable
CREATE TABLE "Prices" (
    "id" INTEGER NOT NULL DEFAULT 1,
    "voicePerMinute" DECIMAL(14,4) NOT NULL DEFAULT 0,
    "videoPerMinute" DECIMAL(14,4) NOT NULL DEFAULT 0,
    "sharePerMinute" DECIMAL(14,4) NOT NULL DEFAULT 0,
    "recordingPerMinute" DECIMAL(14,4) NOT NULL DEFAULT 0,
    "translatePerChar" DECIMAL(14,6) NOT NULL DEFAULT 0.0005,

    CONSTRAINT "Prices_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ChargeRecord" (
    "id" UUID NOT NULL,
    "companyId" UUID NOT NULL,
    "key" TEXT NOT NULL DEFAULT 'calls',
    "type" TEXT NOT NULL DEFAULT 'cumulativeTimer',
    "tag" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "tickIndex" INTEGER NOT NULL,
    "callId" UUID,
    "name" TEXT NOT NULL,
    "seconds" INTEGER NOT NULL,
    "amount" DECIMAL(14,4) NOT NULL,
    "discount" DECIMAL(14,4) NOT NULL DEFAULT 0,
    "summary" JSONB NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ChargeRecord_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "StatementEntry" (
    "id" UUID NOT NULL,
    "seq" BIGSERIAL NOT NULL,
    "companyId" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "amount" DECIMAL(14,4) NOT NULL,
    "balanceAfter" DECIMAL(14,4) NOT NULL,
    "chargeRecordId" UUID,
    "callId" UUID,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "StatementEntry_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Call" (
    "id" UUID NOT NULL,
    "companyId" UUID NOT NULL,
    "conversationId" UUID NOT NULL,
    "ownerId" UUID,
    "type" INTEGER NOT NULL,
    "isLive" BOOLEAN NOT NULL DEFAULT false,
    "telemedicine" BOOLEAN NOT NULL DEFAULT false,
    "open" BOOLEAN NOT NULL DEFAULT false,
    "concluded" BOOLEAN NOT NULL DEFAULT false,
    "endReason" TEXT,
    "startedAt" TIMESTAMP(3),
    "endedAt" TIMESTAMP(3),
    "linkKey" TEXT NOT NULL,
    "hostInstance" TEXT NOT NULL,
    "rec" INTEGER NOT NULL DEFAULT 1,
    "recStatus" TEXT,
    "recorderId" UUID,
    "recStartedAt" TIMESTAMP(3),
    "canRec" BOOLEAN NOT NULL DEFAULT true,
    "priceVoice" DECIMAL(14,4) NOT NULL DEFAULT 0,
    "priceVideo" DECIMAL(14,4) NOT NULL DEFAULT 0,
    "priceShare" DECIMAL(14,4) NOT NULL DEFAULT 0,
    "priceRecording" DECIMAL(14,4) NOT NULL DEFAULT 0,
    "voiceSeconds" INTEGER NOT NULL DEFAULT 0,
    "videoSeconds" INTEGER NOT NULL DEFAULT 0,
    "shareSeconds" INTEGER NOT NULL DEFAULT 0,
    "recordingSeconds" INTEGER NOT NULL DEFAULT 0,
    "recordingBilledTicks" INTEGER NOT NULL DEFAULT 0,
    "recordingBilledUntil" TIMESTAMP(3),
    "totalCharged" DECIMAL(14,4) NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Call_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CallParticipant" (
    "id" UUID NOT NULL,
    "callId" UUID NOT NULL,
    "userId" UUID NOT NULL,
    "calling" BOOLEAN NOT NULL DEFAULT false,
    "accepted" BOOLEAN NOT NULL DEFAULT false,
    "connecting" BOOLEAN NOT NULL DEFAULT false,
    "connected" BOOLEAN NOT NULL DEFAULT false,
    "rejected" BOOLEAN NOT NULL DEFAULT false,
    "kicked" BOOLEAN NOT NULL DEFAULT false,
    "ringDeadline" TIMESTAMP(3),
    "audio" BOOLEAN NOT NULL DEFAULT false,
    "video" BOOLEAN NOT NULL DEFAULT false,
    "screen" BOOLEAN NOT NULL DEFAULT false,
    "cmdExecutor" TEXT,
    "peerId" INTEGER,
    "connectionId" TEXT,
    "connectedAt" TIMESTAMP(3),
    "billedTicks" INTEGER NOT NULL DEFAULT 0,
    "billedUntil" TIMESTAMP(3),
    "totalCharged" DECIMAL(14,4) NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "CallParticipant_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CallRecording" (
    "id" UUID NOT NULL,
    "callId" UUID NOT NULL,
    "messageId" UUID NOT NULL,
    "recorderId" UUID,
    "fileKey" TEXT NOT NULL,
    "fileName" TEXT NOT NULL,
    "fileSize" BIGINT NOT NULL,
    "durationMs" INTEGER NOT NULL,
    "startedAt" TIMESTAMP(3) NOT NULL,
    "endedAt" TIMESTAMP(3) NOT NULL,
    "removedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "CallRecording_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ChargeRecord_companyId_createdAt_idx" ON "ChargeRecord"("companyId", "createdAt");

-- CreateIndex
CREATE INDEX "ChargeRecord_callId_idx" ON "ChargeRecord"("callId");

-- CreateIndex
CREATE UNIQUE INDEX "ChargeRecord_subject_tickIndex_key" ON "ChargeRecord"("subject", "tickIndex");

-- CreateIndex
CREATE UNIQUE INDEX "StatementEntry_chargeRecordId_key" ON "StatementEntry"("chargeRecordId");

-- CreateIndex
CREATE INDEX "StatementEntry_companyId_seq_idx" ON "StatementEntry"("companyId", "seq");

-- CreateIndex
CREATE UNIQUE INDEX "Call_linkKey_key" ON "Call"("linkKey");

-- CreateIndex
CREATE INDEX "Call_companyId_createdAt_idx" ON "Call"("companyId", "createdAt");

-- CreateIndex
CREATE INDEX "Call_conversationId_concluded_idx" ON "Call"("conversationId", "concluded");

-- CreateIndex
CREATE INDEX "Call_hostInstance_concluded_idx" ON "Call"("hostInstance", "concluded");

-- CreateIndex
CREATE INDEX "CallParticipant_userId_connected_idx" ON "CallParticipant"("userId", "connected");

-- CreateIndex
CREATE UNIQUE INDEX "CallParticipant_callId_userId_key" ON "CallParticipant"("callId", "userId");

-- CreateIndex
CREATE UNIQUE INDEX "CallRecording_messageId_key" ON "CallRecording"("messageId");

-- CreateIndex
CREATE INDEX "CallRecording_callId_idx" ON "CallRecording"("callId");

-- AddForeignKey
ALTER TABLE "ChargeRecord" ADD CONSTRAINT "ChargeRecord_companyId_fkey" FOREIGN KEY ("companyId") REFERENCES "Company"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "StatementEntry" ADD CONSTRAINT "StatementEntry_companyId_fkey" FOREIGN KEY ("companyId") REFERENCES "Company"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "StatementEntry" ADD CONSTRAINT "StatementEntry_chargeRecordId_fkey" FOREIGN KEY ("chargeRecordId") REFERENCES "ChargeRecord"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Call" ADD CONSTRAINT "Call_companyId_fkey" FOREIGN KEY ("companyId") REFERENCES "Company"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Call" ADD CONSTRAINT "Call_conversationId_fkey" FOREIGN KEY ("conversationId") REFERENCES "Conversation"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Call" ADD CONSTRAINT "Call_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CallParticipant" ADD CONSTRAINT "CallParticipant_callId_fkey" FOREIGN KEY ("callId") REFERENCES "Call"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CallParticipant" ADD CONSTRAINT "CallParticipant_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CallRecording" ADD CONSTRAINT "CallRecording_callId_fkey" FOREIGN KEY ("callId") REFERENCES "Call"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- The prices document: one row, the spec defaults (calls 0, recorder 0, translate 0.0005 per character).
INSERT INTO "Prices" ("id") VALUES (1) ON CONFLICT DO NOTHING;
