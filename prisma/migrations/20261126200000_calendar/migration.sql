-- CreateTable
CREATE TABLE "CalendarEvent" (
    "id" UUID NOT NULL,
    "companyId" UUID NOT NULL,
    "creatorId" UUID NOT NULL,
    "title" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "start" TIMESTAMPTZ(3) NOT NULL,
    "end" TIMESTAMPTZ(3) NOT NULL,
    "allDay" BOOLEAN NOT NULL DEFAULT false,
    "timeZone" TEXT NOT NULL,
    "isMeeting" BOOLEAN NOT NULL DEFAULT false,
    "repeat" TEXT,
    "rrule" TEXT,
    "remind" BOOLEAN NOT NULL DEFAULT true,
    "conversationId" UUID,
    "appointmentId" UUID,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "CalendarEvent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CalendarParticipant" (
    "eventId" UUID NOT NULL,
    "userId" UUID NOT NULL,
    "removed" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "CalendarParticipant_pkey" PRIMARY KEY ("eventId","userId")
);

-- CreateTable
CREATE TABLE "CalendarException" (
    "id" UUID NOT NULL,
    "eventId" UUID NOT NULL,
    "occurrenceStart" TIMESTAMPTZ(3) NOT NULL,
    "cancelled" BOOLEAN NOT NULL DEFAULT false,
    "title" TEXT,
    "description" TEXT,
    "start" TIMESTAMPTZ(3),
    "end" TIMESTAMPTZ(3),

    CONSTRAINT "CalendarException_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ScheduledTask" (
    "id" UUID NOT NULL,
    "companyId" UUID NOT NULL,
    "task" TEXT NOT NULL,
    "startAt" TIMESTAMPTZ(3) NOT NULL,
    "eventId" UUID NOT NULL,
    "occurrenceStart" TIMESTAMPTZ(3) NOT NULL,
    "occurrenceEnd" TIMESTAMPTZ(3) NOT NULL,
    "options" JSONB NOT NULL DEFAULT '{}',
    "firedAt" TIMESTAMPTZ(3),
    "late" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "ScheduledTask_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "CalendarEvent_companyId_start_idx" ON "CalendarEvent"("companyId", "start");

-- CreateIndex
CREATE INDEX "CalendarEvent_companyId_creatorId_idx" ON "CalendarEvent"("companyId", "creatorId");

-- CreateIndex
CREATE INDEX "CalendarParticipant_userId_idx" ON "CalendarParticipant"("userId");

-- CreateIndex
CREATE UNIQUE INDEX "CalendarException_eventId_occurrenceStart_key" ON "CalendarException"("eventId", "occurrenceStart");

-- CreateIndex
CREATE INDEX "ScheduledTask_firedAt_startAt_idx" ON "ScheduledTask"("firedAt", "startAt");

-- CreateIndex
CREATE UNIQUE INDEX "ScheduledTask_eventId_occurrenceStart_task_key" ON "ScheduledTask"("eventId", "occurrenceStart", "task");

-- AddForeignKey
ALTER TABLE "CalendarParticipant" ADD CONSTRAINT "CalendarParticipant_eventId_fkey" FOREIGN KEY ("eventId") REFERENCES "CalendarEvent"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CalendarException" ADD CONSTRAINT "CalendarException_eventId_fkey" FOREIGN KEY ("eventId") REFERENCES "CalendarEvent"("id") ON DELETE CASCADE ON UPDATE CASCADE;

