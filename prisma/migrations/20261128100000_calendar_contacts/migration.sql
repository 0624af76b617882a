-- CreateTable
CREATE TABLE "CalendarContact" (
    "eventId" UUID NOT NULL,
    "contactId" UUID NOT NULL,

    CONSTRAINT "CalendarContact_pkey" PRIMARY KEY ("eventId","contactId")
);

-- CreateIndex
CREATE INDEX "CalendarContact_contactId_idx" ON "CalendarContact"("contactId");

-- AddForeignKey
ALTER TABLE "CalendarContact" ADD CONSTRAINT "CalendarContact_eventId_fkey" FOREIGN KEY ("eventId") REFERENCES "CalendarEvent"("id") ON DELETE CASCADE ON UPDATE CASCADE;
