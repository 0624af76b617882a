-- CreateTable
CREATE TABLE "TelemedicineCompany" (
    "companyId" UUID NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "acceptsGlobalDoctors" BOOLEAN NOT NULL DEFAULT false,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "TelemedicineCompany_pkey" PRIMARY KEY ("companyId")
);

-- CreateTable
CREATE TABLE "DoctorEnrolment" (
    "id" TEXT NOT NULL,
    "companyId" UUID NOT NULL,
    "userId" UUID NOT NULL,
    "crm" TEXT NOT NULL,
    "uf" TEXT NOT NULL,
    "prefix" TEXT NOT NULL DEFAULT '',
    "speciality" TEXT NOT NULL DEFAULT '',
    "global" BOOLEAN NOT NULL DEFAULT false,
    "status" TEXT NOT NULL DEFAULT 'WAITING_APROVATION',
    "documentKey" TEXT,
    "documentName" TEXT,
    "documentMime" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "blockedAt" TIMESTAMP(3),
    "lastUpdate" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "DoctorEnrolment_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "DoctorPresence" (
    "userId" UUID NOT NULL,
    "online" BOOLEAN NOT NULL DEFAULT false,
    "consultationId" UUID,
    "changedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "DoctorPresence_pkey" PRIMARY KEY ("userId")
);

-- CreateTable
CREATE TABLE "Consultation" (
    "id" UUID NOT NULL,
    "companyId" UUID NOT NULL,
    "patientId" UUID NOT NULL,
    "conversationId" UUID NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'WAITING',
    "requestedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "doctorId" UUID,
    "takenAt" TIMESTAMP(3),
    "endedAt" TIMESTAMP(3),
    "callId" UUID,
    "recordingConsent" BOOLEAN,
    "recordingConsentAt" TIMESTAMP(3),

    CONSTRAINT "Consultation_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ClinicalNote" (
    "id" UUID NOT NULL,
    "consultationId" UUID NOT NULL,
    "companyId" UUID NOT NULL,
    "authorId" UUID NOT NULL,
    "text" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ClinicalNote_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "HealthDataAccess" (
    "id" UUID NOT NULL,
    "companyId" UUID NOT NULL,
    "consultationId" UUID NOT NULL,
    "userId" UUID NOT NULL,
    "what" TEXT NOT NULL,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "HealthDataAccess_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "DoctorEnrolment_userId_idx" ON "DoctorEnrolment"("userId");

-- CreateIndex
CREATE INDEX "DoctorEnrolment_companyId_status_idx" ON "DoctorEnrolment"("companyId", "status");

-- CreateIndex
CREATE UNIQUE INDEX "DoctorEnrolment_companyId_userId_key" ON "DoctorEnrolment"("companyId", "userId");

-- CreateIndex
CREATE UNIQUE INDEX "Consultation_conversationId_key" ON "Consultation"("conversationId");

-- CreateIndex
CREATE INDEX "Consultation_status_requestedAt_idx" ON "Consultation"("status", "requestedAt");

-- CreateIndex
CREATE INDEX "Consultation_companyId_status_requestedAt_idx" ON "Consultation"("companyId", "status", "requestedAt");

-- CreateIndex
CREATE INDEX "Consultation_doctorId_takenAt_idx" ON "Consultation"("doctorId", "takenAt");

-- CreateIndex
CREATE INDEX "Consultation_patientId_idx" ON "Consultation"("patientId");

-- CreateIndex
CREATE INDEX "ClinicalNote_consultationId_createdAt_idx" ON "ClinicalNote"("consultationId", "createdAt");

-- CreateIndex
CREATE INDEX "HealthDataAccess_companyId_at_idx" ON "HealthDataAccess"("companyId", "at");

-- CreateIndex
CREATE INDEX "HealthDataAccess_consultationId_idx" ON "HealthDataAccess"("consultationId");

-- AddForeignKey
ALTER TABLE "ClinicalNote" ADD CONSTRAINT "ClinicalNote_consultationId_fkey" FOREIGN KEY ("consultationId") REFERENCES "Consultation"("id") ON DELETE CASCADE ON UPDATE CASCADE;

