-- AlterTable
ALTER TABLE "Participant" ADD COLUMN     "telegram" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "whatsapp" BOOLEAN NOT NULL DEFAULT false;

