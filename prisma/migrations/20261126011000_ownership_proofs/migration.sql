-- AlterTable
ALTER TABLE "ClientCompanyLink" ADD COLUMN     "confirmedAt" TIMESTAMP(3),
ADD COLUMN     "needsConfirmation" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "User" ADD COLUMN     "phoneVerifiedAt" TIMESTAMP(3);


-- Accounts born from a phone sign-in (no e-mail, no password) proved their number with the code;
-- a number typed on the account page did not, and stays unproven until its owner confirms it.
UPDATE "User" SET "phoneVerifiedAt" = "createdAt" WHERE "phone" IS NOT NULL AND "email" IS NULL AND "passwordHash" IS NULL;
