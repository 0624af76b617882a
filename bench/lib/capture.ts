/**
 * Records the SQL the in-process server sends to PostgreSQL while a call runs, so a benchmark can
 * EXPLAIN ANALYZE exactly those statements (text and parameters) afterwards. Works at the `pg`
 * driver, under Prisma's adapter: what is captured is what the database received.
 */
import pg from 'pg';

export interface Statement {
  text: string;
  values: unknown[];
}

let sink: Statement[] | undefined;
let installed = false;

function install() {
  if (installed) return;
  installed = true;
  const original = pg.Client.prototype.query as (...args: unknown[]) => unknown;
  (pg.Client.prototype as any).query = function (this: unknown, ...args: unknown[]) {
    if (sink) {
      const [a, b] = args as [string | { text?: string; values?: unknown[] }, unknown[] | undefined];
      const text = typeof a === 'string' ? a : a?.text;
      const values = typeof a === 'string' ? b : a?.values;
      if (text && /^\s*(select|with)\b/i.test(text)) sink.push({ text, values: Array.isArray(values) ? values : [] });
    }
    return original.apply(this, args);
  };
}

/** The read statements issued while `fn` runs (run nothing else meanwhile). */
export async function captureSql(fn: () => Promise<unknown>): Promise<Statement[]> {
  install();
  const got: Statement[] = [];
  sink = got;
  try {
    await fn();
  } finally {
    sink = undefined;
  }
  return got;
}

/** EXPLAIN ANALYZE of one statement: planning and execution time (ms) and the plan's top node. */
export async function explainAnalyze(client: pg.Client, s: Statement) {
  const res = await client.query({ text: `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${s.text}`, values: s.values as any[] });
  const plan = (res.rows[0]['QUERY PLAN'] as any[])[0];
  return { planning: plan['Planning Time'] as number, execution: plan['Execution Time'] as number, plan: plan.Plan as Record<string, unknown> };
}

/** Node types of a plan, depth first: enough to see which indexes it used. */
export function planNodes(plan: any, out: string[] = []): string[] {
  out.push(`${plan['Node Type']}${plan['Index Name'] ? ` (${plan['Index Name']})` : plan['Relation Name'] ? ` on ${plan['Relation Name']}` : ''}`);
  for (const p of plan.Plans ?? []) planNodes(p, out);
  return out;
}
