-- The wait estimate reads a company's last requests taken, newest first (every take's statement
-- and estimatedWait). Without this index it read every request the company took in the past week
-- and sorted them: a few milliseconds in each claim statement of bench/queue-take, and growing
-- with the company (issue 22).
CREATE INDEX "Conversation_companyId_takenAt_idx" ON "Conversation"("companyId", "takenAt");
