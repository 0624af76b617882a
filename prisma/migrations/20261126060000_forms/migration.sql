-- CreateTable
CREATE TABLE "FormTemplate" (
    "id" UUID NOT NULL,
    "companyId" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "nameKey" TEXT,
    "creatorId" UUID,
    "editorIds" UUID[] DEFAULT ARRAY[]::UUID[],
    "isPrivate" BOOLEAN NOT NULL DEFAULT false,
    "version" INTEGER NOT NULL DEFAULT 1,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deletedAt" TIMESTAMP(3),

    CONSTRAINT "FormTemplate_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "FormTemplateVersion" (
    "id" UUID NOT NULL,
    "templateId" UUID NOT NULL,
    "version" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "fields" JSONB NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "FormTemplateVersion_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "FilledForm" (
    "id" UUID NOT NULL,
    "companyId" UUID NOT NULL,
    "templateId" UUID NOT NULL,
    "versionId" UUID NOT NULL,
    "conversationId" UUID,
    "filler" TEXT NOT NULL DEFAULT 'member',
    "status" TEXT NOT NULL DEFAULT 'draft',
    "values" JSONB NOT NULL DEFAULT '{}',
    "startedById" UUID NOT NULL,
    "submittedById" UUID,
    "submittedByName" TEXT,
    "submittedAt" TIMESTAMP(3),
    "messageId" UUID,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "FilledForm_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "MemberForms" (
    "companyId" UUID NOT NULL,
    "userId" UUID NOT NULL,
    "allForms" BOOLEAN NOT NULL DEFAULT true,
    "templateIds" UUID[] DEFAULT ARRAY[]::UUID[],
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "MemberForms_pkey" PRIMARY KEY ("companyId","userId")
);

-- CreateIndex
CREATE INDEX "FormTemplate_companyId_createdAt_idx" ON "FormTemplate"("companyId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "FormTemplate_companyId_nameKey_key" ON "FormTemplate"("companyId", "nameKey");

-- CreateIndex
CREATE UNIQUE INDEX "FormTemplateVersion_templateId_version_key" ON "FormTemplateVersion"("templateId", "version");

-- CreateIndex
CREATE INDEX "FilledForm_companyId_templateId_submittedAt_idx" ON "FilledForm"("companyId", "templateId", "submittedAt");

-- CreateIndex
CREATE INDEX "FilledForm_conversationId_idx" ON "FilledForm"("conversationId");

-- AddForeignKey
ALTER TABLE "FormTemplate" ADD CONSTRAINT "FormTemplate_companyId_fkey" FOREIGN KEY ("companyId") REFERENCES "Company"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "FormTemplateVersion" ADD CONSTRAINT "FormTemplateVersion_templateId_fkey" FOREIGN KEY ("templateId") REFERENCES "FormTemplate"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "FilledForm" ADD CONSTRAINT "FilledForm_templateId_fkey" FOREIGN KEY ("templateId") REFERENCES "FormTemplate"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "FilledForm" ADD CONSTRAINT "FilledForm_versionId_fkey" FOREIGN KEY ("versionId") REFERENCES "FormTemplateVersion"("id") ON DELETE NO ACTION ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "FilledForm" ADD CONSTRAINT "FilledForm_conversationId_fkey" FOREIGN KEY ("conversationId") REFERENCES "Conversation"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "MemberForms" ADD CONSTRAINT "MemberForms_companyId_fkey" FOREIGN KEY ("companyId") REFERENCES "Company"("id") ON DELETE CASCADE ON UPDATE CASCADE;

