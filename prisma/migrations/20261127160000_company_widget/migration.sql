-- The embeddable widget's look, per company: { color, greeting, label, position }.
ALTER TABLE "Company" ADD COLUMN "widget" JSONB NOT NULL DEFAULT '{}';
