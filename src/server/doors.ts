/**
 * The HTTP doors in front of tRPC and the file routes: what a request must look like before any
 * procedure or handler sees it (docs/decisions.md, "Doors, limits and governed procedures").
 */
import type { Express, NextFunction, Request, Response } from 'express';
import { REQUEST_TOO_LARGE_MESSAGE } from '../shared/limits';
import { domainSchema } from '../shared/schemas/company';

/** Nesting a real request never reaches (the superjson envelope adds two levels to an input). */
export const MAX_JSON_DEPTH = 64;
export const JSON_TOO_DEEP_MESSAGE = `The request is nested too deeply: at most ${MAX_JSON_DEPTH} levels of objects and lists`;
export const JSON_ONLY_MESSAGE = 'The server accepts only JSON here: send the request with Content-Type: application/json';
export const INVALID_JSON_MESSAGE = 'The request body is not valid JSON';
export const BATCH_TOO_LARGE_MESSAGE = 'Too many calls in one request: send fewer at a time';

/** tRPC's JSON-RPC numbers for the codes these doors answer with. */
const RPC_CODES = { BAD_REQUEST: -32600, PAYLOAD_TOO_LARGE: -32413, UNSUPPORTED_MEDIA_TYPE: -32415 } as const;
type DoorCode = keyof typeof RPC_CODES;
const HTTP_STATUS: Record<DoorCode, number> = { BAD_REQUEST: 400, PAYLOAD_TOO_LARGE: 413, UNSUPPORTED_MEDIA_TYPE: 415 };

/** Answers as tRPC itself would (superjson envelope; one entry per call of a batch), so clients read it the same way. */
function refuse(req: Request, res: Response, code: DoorCode, message: string) {
  const paths = req.path.replace(/^\//, '').split(',');
  const batch = req.query.batch === '1';
  const one = (path: string | undefined) => ({
    error: { json: { message, code: RPC_CODES[code], data: { code, httpStatus: HTTP_STATUS[code], ...(path && { path }) } } },
  });
  res.status(HTTP_STATUS[code]).json(batch ? paths.map(one) : one(paths[0]));
}

/** The deepest nesting of objects and lists in a JSON text, stopping once past `limit` (strings skipped). */
export function jsonDepthExceeds(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 /* { */ || c === 91 /* [ */) {
      if (++depth > limit) return true;
    } else if (c === 125 /* } */ || c === 93 /* ] */) depth--;
  }
  return false;
}

/**
 * Before tRPC: a mutation's body must be JSON (a form post or multipart body is what a page of a
 * sibling origin can send with the user's cookie without a CORS preflight; JSON cannot be sent
 * that way), no larger than `maxBytes`, and no deeper than MAX_JSON_DEPTH; a query's input too.
 * The body is read here and handed to tRPC as text.
 */
export function trpcDoor(opts: { maxBytes: number }) {
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method === 'GET' || req.method === 'HEAD') {
      const input = typeof req.query.input === 'string' ? req.query.input : '';
      if (jsonDepthExceeds(input, MAX_JSON_DEPTH)) return refuse(req, res, 'BAD_REQUEST', JSON_TOO_DEEP_MESSAGE);
      return next();
    }
    const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    if (type !== 'application/json') return refuse(req, res, 'UNSUPPORTED_MEDIA_TYPE', JSON_ONLY_MESSAGE);
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > opts.maxBytes) {
      refuse(req, res, 'PAYLOAD_TOO_LARGE', REQUEST_TOO_LARGE_MESSAGE);
      req.resume();
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    req.on('data', (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      if (size > opts.maxBytes) {
        done = true;
        refuse(req, res, 'PAYLOAD_TOO_LARGE', REQUEST_TOO_LARGE_MESSAGE);
        // Drain the rest without keeping it, so the connection stays usable.
        req.resume();
        return;
      }
      chunks.push(chunk);
    });
    req.on('error', (err) => {
      if (done) return;
      done = true;
      next(err);
    });
    req.on('end', () => {
      if (done) return;
      done = true;
      const text = Buffer.concat(chunks).toString('utf8');
      if (jsonDepthExceeds(text, MAX_JSON_DEPTH)) return refuse(req, res, 'BAD_REQUEST', JSON_TOO_DEEP_MESSAGE);
      // tRPC parses the text itself; an empty body stays "no input".
      (req as Request & { body?: string }).body = text === '' ? undefined : text;
      next();
    });
  };
}

/** tRPC's own texts for what the doors above could not catch first, in plain words. */
export function doorMessage(message: string): string | undefined {
  if (message === 'Batch call exceeds maximum size') return BATCH_TOO_LARGE_MESSAGE;
  if (/^Unsupported content-type|^Missing content-type/.test(message)) return JSON_ONLY_MESSAGE;
  if (/JSON/.test(message) && /Unexpected|position|parse/i.test(message)) return INVALID_JSON_MESSAGE;
  return undefined;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const FIELD_ID = /^[A-Za-z0-9_-]{1,40}$/;

/**
 * Ids in paths are checked by their shape before any handler runs: an id that cannot exist is a
 * 404, as a well-formed id of nothing is, instead of reaching a database cast (a 500).
 */
export function checkPathIds(app: Express) {
  const notFound = (res: Response) => res.status(404).json({ error: 'Not found' });
  for (const name of ['userId', 'conversationId', 'noteId', 'formId']) {
    app.param(name, (_req, res, next, value: string) => (UUID.test(value) ? next() : notFound(res)));
  }
  app.param('fieldId', (_req, res, next, value: string) => (FIELD_ID.test(value) ? next() : notFound(res)));
  app.param('domain', (_req, res, next, value: string) => (domainSchema.safeParse(value).success ? next() : notFound(res)));
}

/**
 * What a public health answer may say about a failure: its text without file-system paths (a
 * worker binary's location, a data directory), which tell a stranger how the host is laid out.
 */
export function withoutPaths(text: string): string {
  return text
    .replace(/[a-z][\w+.-]*:\/\/[^\s,;'"()]+/gi, '[address]')
    .replace(/(^|[\s'"(=])(?:[A-Za-z]:)?(?:[\\/][^\s,;'"()\\/]+)+[\\/]?/g, '$1[path]')
    .replace(/(^|[\s'"(=])\.{1,2}(?:[\\/][^\s,;'"()\\/]+)+/g, '$1[path]');
}
