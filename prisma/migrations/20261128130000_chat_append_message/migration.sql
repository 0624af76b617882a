-- One call appends a message (issue 22): the next number of the conversation under its row lock, the
-- participants read AFTER that lock (a volatile PL/pgSQL function takes a fresh snapshot per
-- statement under READ COMMITTED, so a participant added by the transaction we waited for is
-- seen), the byte counts, the watermarks of the author, the row itself and the mentions. Called inside
-- the transaction of its caller it is one statement of it, and called alone (p_standalone) it is its own
-- transaction, and refuses (SQLSTATE AT001, nothing written) when channel relays would have to be
-- queued in the same transaction, so the caller redoes it inside one.
-- The body is an escaped string (\073 is a semicolon, '' a quote), not dollar-quoted: the
-- migration engine (@prisma/adapter-pg executeScript) splits a file at EVERY semicolon, quoted or not.
CREATE FUNCTION chat_append_message(
  p_conversation uuid, p_id uuid, p_author uuid, p_client text, p_type text, p_text text, p_reply uuid,
  p_forwarded boolean, p_comment boolean, p_mentions uuid[], p_base_bytes integer,
  p_file_key text, p_file_name text, p_file_size bigint, p_file_mime text, p_thumb_key text,
  p_recording boolean, p_duration integer, p_call uuid, p_data jsonb, p_now timestamp(3), p_standalone boolean)
RETURNS TABLE (out_message "Message", out_company uuid, out_participants jsonb)
LANGUAGE plpgsql VOLATILE AS E'
DECLARE
  v_seq integer\073
  v_company uuid\073
  v_parts jsonb\073
  v_count integer\073
  v_relays boolean\073
  v_row "Message"\073
BEGIN
  UPDATE "Conversation" c SET "lastSeq" = c."lastSeq" + 1, "lastMessageAt" = p_now, "updatedAt" = p_now
    WHERE c."id" = p_conversation RETURNING c."lastSeq", c."companyId" INTO v_seq, v_company\073
  IF NOT FOUND THEN
    RETURN\073
  END IF\073
  -- `refused`: a member the company blocked or removed: counted, but told nothing more.
  SELECT coalesce(jsonb_agg(jsonb_build_object(
           ''userId'', p."userId", ''whatsapp'', p."whatsapp", ''telegram'', p."telegram", ''email'', p."email",
           ''refused'', EXISTS (SELECT 1 FROM "Member" m WHERE m."companyId" = v_company AND m."userId" = p."userId" AND (m."blocked" OR m."removed"))
         )), ''[]''::jsonb),
         count(*),
         coalesce(bool_or((p."whatsapp" OR p."telegram" OR p."email") AND p."userId" IS DISTINCT FROM p_author), false)
    INTO v_parts, v_count, v_relays
    FROM "Participant" p WHERE p."conversationId" = p_conversation AND NOT p."removed"\073
  IF p_standalone AND v_relays AND NOT p_comment THEN
    RAISE EXCEPTION ''chat_append_message: channel relays need the transaction of the caller'' USING ERRCODE = ''AT001''\073
  END IF\073
  UPDATE "Conversation" c SET "bytesMessages" = c."bytesMessages" + (p_base_bytes + 2 * v_count), "bytesAttachments" = c."bytesAttachments" + coalesce(p_file_size, 0)
    WHERE c."id" = p_conversation\073
  IF p_author IS NOT NULL THEN
    UPDATE "Participant" p SET "deliveredSeq" = v_seq, "readSeq" = v_seq, "draft" = NULL
      WHERE p."conversationId" = p_conversation AND p."userId" = p_author\073
  END IF\073
  INSERT INTO "Message" ("id", "conversationId", "seq", "authorId", "clientId", "type", "text", "replyToId", "forwarded", "isComment",
      "mentions", "bytes", "fileKey", "fileName", "fileSize", "fileMime", "thumbKey", "isRecording", "durationMs", "callId", "data", "createdAt")
    VALUES (p_id, p_conversation, v_seq, p_author, p_client, p_type, p_text, p_reply, p_forwarded, p_comment,
      p_mentions, p_base_bytes + 2 * v_count, p_file_key, p_file_name, p_file_size, p_file_mime, p_thumb_key, p_recording, p_duration, p_call, p_data, p_now)
    RETURNING * INTO v_row\073
  IF cardinality(p_mentions) > 0 THEN
    UPDATE "Participant" p SET "mentionSeq" = v_seq
      WHERE p."conversationId" = p_conversation AND p."userId" = ANY (p_mentions) AND p."userId" IS DISTINCT FROM p_author AND NOT p."removed"\073
  END IF\073
  RETURN QUERY SELECT v_row, v_company, v_parts\073
END
';
