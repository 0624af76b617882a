-- AlterTable
ALTER TABLE "Call" ADD COLUMN     "priceTranslate" DECIMAL(14,6) NOT NULL DEFAULT 0.0005,
ADD COLUMN     "subtitles" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "CallParticipant" ADD COLUMN     "language" TEXT,
ADD COLUMN     "subtitlesOn" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "translationOn" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "CallTranscriptLine" (
    "id" UUID NOT NULL,
    "companyId" UUID NOT NULL,
    "callId" UUID NOT NULL,
    "userId" UUID NOT NULL,
    "userName" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "lang" TEXT NOT NULL,
    "translations" JSONB NOT NULL DEFAULT '{}',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "CallTranscriptLine_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "CallTranscriptLine_callId_createdAt_idx" ON "CallTranscriptLine"("callId", "createdAt");

-- AddForeignKey
ALTER TABLE "CallTranscriptLine" ADD CONSTRAINT "CallTranscriptLine_callId_fkey" FOREIGN KEY ("callId") REFERENCES "Call"("id") ON DELETE CASCADE ON UPDATE CASCADE;

