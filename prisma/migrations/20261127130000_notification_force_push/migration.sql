-- AlterTable
ALTER TABLE "Notification" ADD COLUMN     "forcePush" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "isGlobal" BOOLEAN NOT NULL DEFAULT false;
