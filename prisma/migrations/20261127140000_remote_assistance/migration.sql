-- Remote assistance calls (tipo 4): their price per minute (arTime) and the time charged.
ALTER TABLE "Prices" ADD COLUMN "remotePerMinute" DECIMAL(14,4) NOT NULL DEFAULT 0;
ALTER TABLE "Call" ADD COLUMN "priceRemote" DECIMAL(14,4) NOT NULL DEFAULT 0;
ALTER TABLE "Call" ADD COLUMN "remoteSeconds" INTEGER NOT NULL DEFAULT 0;
