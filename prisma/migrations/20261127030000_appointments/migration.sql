-- CreateTable
CREATE TABLE "ScheduleSettings" (
    "companyId" UUID NOT NULL,
    "attendantId" UUID NOT NULL,
    "timeZone" TEXT NOT NULL,
    "slotMinutes" INTEGER NOT NULL DEFAULT 30,
    "bufferMinutes" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "ScheduleSettings_pkey" PRIMARY KEY ("companyId","attendantId")
);

-- CreateTable
CREATE TABLE "AvailabilityWindow" (
    "id" UUID NOT NULL,
    "companyId" UUID NOT NULL,
    "attendantId" UUID NOT NULL,
    "weekday" INTEGER NOT NULL,
    "startMinute" INTEGER NOT NULL,
    "endMinute" INTEGER NOT NULL,

    CONSTRAINT "AvailabilityWindow_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Appointment" (
    "id" UUID NOT NULL,
    "companyId" UUID NOT NULL,
    "attendantId" UUID NOT NULL,
    "customerId" UUID,
    "customerName" TEXT NOT NULL DEFAULT '',
    "customerEmail" TEXT NOT NULL DEFAULT '',
    "start" TIMESTAMPTZ(3) NOT NULL,
    "end" TIMESTAMPTZ(3) NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'booked',
    "bookedStart" TIMESTAMPTZ(3),
    "eventId" UUID,
    "conversationId" UUID,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Appointment_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "AvailabilityWindow_companyId_attendantId_idx" ON "AvailabilityWindow"("companyId", "attendantId");

-- CreateIndex
CREATE INDEX "Appointment_companyId_attendantId_start_idx" ON "Appointment"("companyId", "attendantId", "start");

-- CreateIndex
CREATE INDEX "Appointment_companyId_customerId_idx" ON "Appointment"("companyId", "customerId");

-- CreateIndex
CREATE UNIQUE INDEX "Appointment_attendantId_bookedStart_key" ON "Appointment"("attendantId", "bookedStart");

-- AddForeignKey
ALTER TABLE "AvailabilityWindow" ADD CONSTRAINT "AvailabilityWindow_companyId_attendantId_fkey" FOREIGN KEY ("companyId", "attendantId") REFERENCES "ScheduleSettings"("companyId", "attendantId") ON DELETE CASCADE ON UPDATE CASCADE;

