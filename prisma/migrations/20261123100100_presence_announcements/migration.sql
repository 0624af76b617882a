-- Presence: the connected state last announced per person (each change pushed once).

-- CreateTable
CREATE TABLE "PresenceAnnouncement" (
    "userId" UUID NOT NULL,
    "connected" BOOLEAN NOT NULL,
    "at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "PresenceAnnouncement_pkey" PRIMARY KEY ("userId")
);

