-- Issue 15: the availability of a queue. An appointment booked on it has a queue and no attendant yet.
ALTER TABLE "Appointment" ALTER COLUMN "attendantId" DROP NOT NULL;
ALTER TABLE "Appointment" ADD COLUMN "queueId" UUID;
CREATE UNIQUE INDEX "Appointment_queueId_bookedStart_key" ON "Appointment"("queueId", "bookedStart");

CREATE TABLE "QueueSchedule" (
    "companyId" UUID NOT NULL,
    "queueId" UUID NOT NULL,
    "timeZone" TEXT NOT NULL,
    "slotMinutes" INTEGER NOT NULL DEFAULT 30,
    "bufferMinutes" INTEGER NOT NULL DEFAULT 0,
    "setById" UUID NOT NULL,
    CONSTRAINT "QueueSchedule_pkey" PRIMARY KEY ("companyId","queueId")
);

CREATE TABLE "QueueWindow" (
    "id" UUID NOT NULL,
    "companyId" UUID NOT NULL,
    "queueId" UUID NOT NULL,
    "weekday" INTEGER NOT NULL,
    "startMinute" INTEGER NOT NULL,
    "endMinute" INTEGER NOT NULL,
    CONSTRAINT "QueueWindow_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "QueueWindow_companyId_queueId_idx" ON "QueueWindow"("companyId", "queueId");
ALTER TABLE "QueueWindow" ADD CONSTRAINT "QueueWindow_companyId_queueId_fkey" FOREIGN KEY ("companyId", "queueId") REFERENCES "QueueSchedule"("companyId", "queueId") ON DELETE CASCADE ON UPDATE CASCADE;
