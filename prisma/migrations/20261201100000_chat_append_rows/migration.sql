-- The append functions return one row per message appended: one for chat_append_message, a batch
-- of a few for chat_append_messages. Declared without ROWS, a set-returning function is estimated
-- at 1000 rows, and the statements that call them were planned for that: their joins to the
-- author and the reply hashed whole tables (issue 22). Those joins are now LATERAL lookups
-- (APPENDED_JOINS), and the estimates say what the functions return.
ALTER FUNCTION chat_append_message(uuid, uuid, uuid, text, text, text, uuid, boolean, boolean, uuid[], integer, text, text, bigint, text, text, boolean, integer, uuid, jsonb, timestamp without time zone, boolean) ROWS 1;
ALTER FUNCTION chat_append_messages(jsonb) ROWS 10;
