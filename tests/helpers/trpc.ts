import superjson from 'superjson';

export interface TrpcResult {
  status: number;
  /** The procedure's output when it succeeded. */
  data?: unknown;
  error?: { message: string; code: string; httpStatus: number; data: Record<string, unknown> };
  raw: string;
  /** `name=value` of each cookie the response set (e.g. the session after signing in). */
  cookies: string[];
}

/**
 * Calls one procedure over real HTTP, as the browser's tRPC client does (superjson envelope, no
 * batching). Queries go as GET, mutations as POST.
 */
export async function callProcedure(
  baseUrl: string,
  path: string,
  input: unknown,
  opts: { cookie?: string; type?: 'query' | 'mutation'; headers?: Record<string, string> } = {},
): Promise<TrpcResult> {
  const payload = JSON.stringify(superjson.serialize(input));
  const headers: Record<string, string> = { 'content-type': 'application/json', ...opts.headers };
  if (opts.cookie) headers.cookie = opts.cookie;
  const res =
    opts.type === 'mutation'
      ? await fetch(`${baseUrl}/trpc/${path}`, { method: 'POST', headers, body: payload })
      : await fetch(`${baseUrl}/trpc/${path}?input=${encodeURIComponent(payload)}`, { headers });
  const raw = await res.text();
  const cookies = res.headers.getSetCookie().map((c) => c.split(';')[0]!);
  let body: any;
  try {
    body = JSON.parse(raw);
  } catch {
    return { status: res.status, raw, cookies };
  }
  if (body.error) {
    const e = body.error.json ?? body.error;
    return { status: res.status, raw, cookies, error: { message: e.message, code: e.data?.code, httpStatus: e.data?.httpStatus, data: e.data } };
  }
  return { status: res.status, raw, cookies, data: superjson.deserialize(body.result.data) };
}
