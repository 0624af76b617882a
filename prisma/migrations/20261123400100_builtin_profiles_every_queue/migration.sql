-- Profile.queueIds now restricts the queues a profile's members see and take from (empty = every
-- queue). Registration used to give the built-in profiles (A01, M01) the default queue only, which
-- under that rule would hide every later queue from everyone: those become "every queue" again.
UPDATE "Profile" p SET "queueIds" = '[]'::jsonb
WHERE p."code" IN ('A01', 'M01')
  AND jsonb_typeof(p."queueIds") = 'array'
  AND jsonb_array_length(p."queueIds") = 1
  AND EXISTS (
    SELECT 1 FROM "Queue" q
    WHERE q."companyId" = p."companyId" AND q."key" = 'faleconosco' AND q."id"::text = p."queueIds"->>0
  );
