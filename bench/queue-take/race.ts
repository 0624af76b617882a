/** The race queue-take runs: shared by the client processes (socket, HTTP) and the parent's bare baseline. */

export type Outcome = 'won' | 'conflict' | string;

export interface RaceOutcome {
  conflicts: number;
  /** Of the head-of-line burst (everyone on the oldest request at once). */
  headConflicts: number;
  errors: number;
  latencies: number[];
  /** Request id -> the attendant told they won it. */
  winners: [string, string][];
  doubleWins: number;
  firstError?: string;
}

/**
 * `attendants` racers over `ids` (oldest first). First the head of the line: every attendant
 * takes the oldest request at the same moment (one may win). Then each takes a random one among
 * those not known taken, until every request is. `known` is what the racers have learned: their own
 * outcomes and, when the racers are spread over processes, what the others report (`onKnown` tells
 * them), standing in for the queue push every attendant's screen receives.
 */
export async function race(ids: string[], attendants: string[], take: (attendant: string, id: string) => Promise<Outcome>, known = new Set<string>(), onKnown?: (id: string) => void): Promise<RaceOutcome> {
  const winners = new Map<string, string>();
  let doubleWins = 0;
  let conflicts = 0;
  let errors = 0;
  let firstError: string | undefined;
  const latencies: number[] = [];
  const attempt = async (attendant: string, id: string) => {
    const s = performance.now();
    const outcome = await take(attendant, id);
    latencies.push(performance.now() - s);
    if (!known.has(id)) {
      known.add(id);
      onKnown?.(id);
    }
    if (outcome === 'won') {
      if (winners.has(id)) doubleWins++;
      winners.set(id, attendant);
    } else if (outcome === 'conflict') conflicts++;
    else {
      errors++;
      firstError ??= outcome;
    }
  };
  await Promise.all(attendants.map((a) => attempt(a, ids[0]!)));
  const headConflicts = conflicts;
  await Promise.all(
    attendants.map(async (attendant) => {
      for (;;) {
        const open = ids.filter((id) => !known.has(id));
        if (open.length === 0) return;
        await attempt(attendant, open[Math.floor(Math.random() * open.length)]!);
      }
    }),
  );
  return { conflicts, headConflicts, errors, latencies, winners: [...winners], doubleWins, firstError };
}
