-- The plan catalogue lives in the prices document, and a subscription remembers the plan it bought.
ALTER TABLE "Prices" ADD COLUMN "plans" JSONB NOT NULL DEFAULT '[]';

ALTER TABLE "Subscription" ADD COLUMN "planKey" TEXT,
ADD COLUMN "planName" TEXT,
ADD COLUMN "monthlyPrice" DECIMAL(14,4),
ADD COLUMN "planFeatures" JSONB;
