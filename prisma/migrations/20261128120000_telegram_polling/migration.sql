-- AlterTable
ALTER TABLE "ChannelSetting" ADD COLUMN     "delivery" TEXT NOT NULL DEFAULT 'auto';

-- CreateTable
CREATE TABLE "TelegramPoll" (
    "settingId" UUID NOT NULL,
    "offset" BIGINT NOT NULL DEFAULT 0,
    "owner" TEXT,
    "leaseUntil" TIMESTAMP(3),

    CONSTRAINT "TelegramPoll_pkey" PRIMARY KEY ("settingId")
);

