-- AlterTable
ALTER TABLE "Conversation" ADD COLUMN     "bytesAttachments" BIGINT NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "Message" ADD COLUMN     "callId" UUID,
ADD COLUMN     "data" JSONB,
ADD COLUMN     "durationMs" INTEGER,
ADD COLUMN     "fileKey" TEXT,
ADD COLUMN     "fileMime" TEXT,
ADD COLUMN     "fileName" TEXT,
ADD COLUMN     "fileSize" BIGINT,
ADD COLUMN     "isRecording" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "thumbKey" TEXT;

