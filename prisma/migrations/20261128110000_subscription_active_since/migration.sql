-- When a plan subscription was first paid: the anchor of its monthly periods, which proration
-- on a plan switch needs (the unused part of the period the company already paid for).
ALTER TABLE "Subscription" ADD COLUMN "activeSince" TIMESTAMP(3);
-- Subscriptions paid before this column existed: their creation is the best anchor we have.
UPDATE "Subscription" SET "activeSince" = "createdAt" WHERE "status" IN ('active', 'past_due', 'unpaid');
