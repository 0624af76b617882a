-- CreateTable
CREATE TABLE "ChannelSetting" (
    "id" UUID NOT NULL,
    "companyId" UUID NOT NULL,
    "channel" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "queueId" UUID,
    "credentials" TEXT NOT NULL,
    "info" JSONB NOT NULL DEFAULT '{}',
    "webhookKey" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ChannelSetting_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ChannelContact" (
    "id" UUID NOT NULL,
    "companyId" UUID NOT NULL,
    "channel" TEXT NOT NULL,
    "externalId" TEXT NOT NULL,
    "userId" UUID NOT NULL,
    "name" TEXT NOT NULL DEFAULT '',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ChannelContact_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ChannelInbound" (
    "id" UUID NOT NULL,
    "companyId" UUID NOT NULL,
    "channel" TEXT NOT NULL,
    "externalId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ChannelInbound_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ChannelOutbox" (
    "id" UUID NOT NULL,
    "companyId" UUID NOT NULL,
    "channel" TEXT NOT NULL,
    "to" TEXT NOT NULL,
    "conversationId" UUID,
    "messageId" UUID,
    "seq" INTEGER,
    "userId" UUID,
    "body" TEXT,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "externalId" TEXT,
    "lastError" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "sentAt" TIMESTAMP(3),

    CONSTRAINT "ChannelOutbox_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "TelegramRecipient" (
    "userId" UUID NOT NULL,
    "companyId" UUID NOT NULL,
    "chatId" TEXT NOT NULL,
    "linkedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "TelegramRecipient_pkey" PRIMARY KEY ("userId","companyId")
);

-- CreateTable
CREATE TABLE "PushSubscription" (
    "id" UUID NOT NULL,
    "userId" UUID NOT NULL,
    "sessionId" TEXT,
    "endpoint" TEXT NOT NULL,
    "p256dh" TEXT NOT NULL,
    "auth" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PushSubscription_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "ChannelSetting_webhookKey_key" ON "ChannelSetting"("webhookKey");

-- CreateIndex
CREATE UNIQUE INDEX "ChannelSetting_companyId_channel_key" ON "ChannelSetting"("companyId", "channel");

-- CreateIndex
CREATE INDEX "ChannelContact_userId_idx" ON "ChannelContact"("userId");

-- CreateIndex
CREATE UNIQUE INDEX "ChannelContact_companyId_channel_externalId_key" ON "ChannelContact"("companyId", "channel", "externalId");

-- CreateIndex
CREATE UNIQUE INDEX "ChannelInbound_companyId_channel_externalId_key" ON "ChannelInbound"("companyId", "channel", "externalId");

-- CreateIndex
CREATE INDEX "ChannelOutbox_status_nextAttemptAt_idx" ON "ChannelOutbox"("status", "nextAttemptAt");

-- CreateIndex
CREATE INDEX "ChannelOutbox_companyId_channel_to_status_idx" ON "ChannelOutbox"("companyId", "channel", "to", "status");

-- CreateIndex
CREATE INDEX "ChannelOutbox_channel_externalId_idx" ON "ChannelOutbox"("channel", "externalId");

-- CreateIndex
CREATE UNIQUE INDEX "ChannelOutbox_messageId_userId_key" ON "ChannelOutbox"("messageId", "userId");

-- CreateIndex
CREATE UNIQUE INDEX "PushSubscription_endpoint_key" ON "PushSubscription"("endpoint");

-- CreateIndex
CREATE INDEX "PushSubscription_userId_idx" ON "PushSubscription"("userId");

-- AddForeignKey
ALTER TABLE "ChannelSetting" ADD CONSTRAINT "ChannelSetting_companyId_fkey" FOREIGN KEY ("companyId") REFERENCES "Company"("id") ON DELETE CASCADE ON UPDATE CASCADE;

