-- The group commit (chat_append_messages, 20261129100000) also carries the server's info lines
-- (issue 22: every take posts a "taken" line right after its claim, and 200 takes wrote 200
-- single-message transactions). An item may now name its type ("y": 'texto' when absent, 'info'
-- for the server's lines) and its data ("d", jsonb). An item without an author ("a" null) moves
-- no watermark and has no earlier send to find. Everything else is as before.
-- The body is an escaped string (\073 is a semicolon, '' a quote), not dollar-quoted: the
-- migration engine (@prisma/adapter-pg executeScript) splits a file at EVERY semicolon, quoted or not.
CREATE OR REPLACE FUNCTION chat_append_messages(p_items jsonb)
RETURNS TABLE (out_idx integer, out_code text, out_message "Message", out_company uuid, out_participants jsonb)
LANGUAGE plpgsql VOLATILE AS E'
DECLARE
  it record\073
  v_busy uuid[] := ''{}''\073
  v_company uuid\073
  v_parts jsonb\073
  v_count integer\073
  v_relays boolean\073
  v_seq integer\073
  v_row "Message"\073
BEGIN
  FOR it IN
    SELECT (e->>''i'')::integer AS i, (e->>''c'')::uuid AS conv, (e->>''id'')::uuid AS id, (e->>''a'')::uuid AS author,
           e->>''k'' AS client, e->>''t'' AS body, (e->>''r'')::uuid AS reply, (e->>''b'')::integer AS base,
           (e->>''n'')::timestamp(3) AS at, coalesce(e->>''y'', ''texto'') AS kind, e->''d'' AS data,
           ARRAY(SELECT x::uuid FROM jsonb_array_elements_text(coalesce(e->''m'', ''[]''::jsonb)) x) AS mentions
      FROM jsonb_array_elements(p_items) e
      ORDER BY (e->>''c'')::uuid, (e->>''i'')::integer
  LOOP
    IF it.conv = ANY (v_busy) THEN
      RETURN QUERY SELECT it.i, ''busy''::text, NULL::"Message", NULL::uuid, NULL::jsonb\073
      CONTINUE\073
    END IF\073
    SELECT c."companyId" INTO v_company FROM "Conversation" c WHERE c."id" = it.conv FOR NO KEY UPDATE SKIP LOCKED\073
    IF NOT FOUND THEN
      IF EXISTS (SELECT 1 FROM "Conversation" c WHERE c."id" = it.conv) THEN
        v_busy := v_busy || it.conv\073
        RETURN QUERY SELECT it.i, ''busy''::text, NULL::"Message", NULL::uuid, NULL::jsonb\073
      ELSE
        RETURN QUERY SELECT it.i, ''notFound''::text, NULL::"Message", NULL::uuid, NULL::jsonb\073
      END IF\073
      CONTINUE\073
    END IF\073
    -- Under the lock every append to this conversation is ordered: a row with this clientId is
    -- either committed (and seen: a fresh snapshot per statement) or written earlier in this batch.
    IF it.client IS NOT NULL AND it.author IS NOT NULL THEN
      SELECT m.* INTO v_row FROM "Message" m WHERE m."conversationId" = it.conv AND m."authorId" = it.author AND m."clientId" = it.client\073
      IF FOUND THEN
        RETURN QUERY SELECT it.i, ''earlier''::text, v_row, v_company, NULL::jsonb\073
        CONTINUE\073
      END IF\073
    END IF\073
    SELECT coalesce(jsonb_agg(jsonb_build_object(
             ''userId'', p."userId", ''whatsapp'', p."whatsapp", ''telegram'', p."telegram", ''email'', p."email",
             ''refused'', EXISTS (SELECT 1 FROM "Member" m WHERE m."companyId" = v_company AND m."userId" = p."userId" AND (m."blocked" OR m."removed"))
           )), ''[]''::jsonb),
           count(*),
           coalesce(bool_or((p."whatsapp" OR p."telegram" OR p."email") AND p."userId" IS DISTINCT FROM it.author), false)
      INTO v_parts, v_count, v_relays
      FROM "Participant" p WHERE p."conversationId" = it.conv AND NOT p."removed"\073
    IF v_relays THEN
      RETURN QUERY SELECT it.i, ''relays''::text, NULL::"Message", NULL::uuid, NULL::jsonb\073
      CONTINUE\073
    END IF\073
    UPDATE "Conversation" c SET "lastSeq" = c."lastSeq" + 1, "lastMessageAt" = it.at, "updatedAt" = it.at,
        "bytesMessages" = c."bytesMessages" + (it.base + 2 * v_count)
      WHERE c."id" = it.conv RETURNING c."lastSeq" INTO v_seq\073
    IF it.author IS NOT NULL THEN
      UPDATE "Participant" p SET "deliveredSeq" = v_seq, "readSeq" = v_seq, "draft" = NULL
        WHERE p."conversationId" = it.conv AND p."userId" = it.author\073
    END IF\073
    INSERT INTO "Message" ("id", "conversationId", "seq", "authorId", "clientId", "type", "text", "replyToId", "forwarded", "isComment",
        "mentions", "bytes", "isRecording", "data", "createdAt")
      VALUES (it.id, it.conv, v_seq, it.author, it.client, it.kind, it.body, it.reply, false, false,
        it.mentions, it.base + 2 * v_count, false, it.data, it.at)
      RETURNING * INTO v_row\073
    IF cardinality(it.mentions) > 0 THEN
      UPDATE "Participant" p SET "mentionSeq" = v_seq
        WHERE p."conversationId" = it.conv AND p."userId" = ANY (it.mentions) AND p."userId" IS DISTINCT FROM it.author AND NOT p."removed"\073
    END IF\073
    RETURN QUERY SELECT it.i, ''ok''::text, v_row, v_company, v_parts\073
  END LOOP\073
END
';
