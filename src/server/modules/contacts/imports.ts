/**
 * CSV import of contacts with a progress bar and a row-by-row report. The file is read and every
 * row checked at once (csv-parse: quotes, line breaks in cells, BOM; ',' or ';' as the separator);
 * then a ContactImport row keeps the checked rows and how far the writing got. The rows are
 * written 100 at a time, each batch in one transaction with the job's progress, and the progress
 * is pushed to the importer's tabs (contacts:import; contacts.importStatus answers the same for a
 * tab that polls). A row whose e-mail is already in the directory updates that contact.
 * An import cut short by a restart is taken up again by a job (FOR UPDATE SKIP LOCKED) from the
 * last batch written: a batch and its progress commit together, so no row is written twice.
 */
import { parse } from 'csv-parse/sync';
import type { Prisma } from '../../../generated/prisma/client';
import { checkContact, cleanTags, CONTACT_MESSAGES as M, IMPORT_MAX_ROWS, mapColumns, rowErrorText, rowToInput, type ContactData } from '../../../shared/domain/contacts';
import type { AppDeps } from '../../deps';
import { fail } from '../feeds/errors';
import { extraFields, type ContactsContext } from './service';

const BATCH = 100;
/** An import whose runner has not written for this long is taken to be cut short, and resumed. */
const STALE_MS = 60_000;

type PendingRow = { row: number; contact: ContactData } | { row: number; error: string };
type ImportDeps = Pick<AppDeps, 'db' | 'realtime' | 'clock' | 'logger'>;

/** Reads the file into rows of cells; the separator is the header's (',' or ';', as spreadsheets export). */
function readCsv(text: string): string[][] {
  const firstLine = text.slice(0, text.search(/\r?\n|$/));
  const delimiter = (firstLine.match(/;/g)?.length ?? 0) > (firstLine.match(/,/g)?.length ?? 0) ? ';' : ',';
  try {
    return parse(text, { bom: true, delimiter, relax_column_count: true, skip_empty_lines: true, relax_quotes: true }) as string[][];
  } catch {
    throw fail('BAD_REQUEST', M.notCsv);
  }
}

/** Checks every row of the file and creates the import; the writing starts at once, in the background. */
export async function startImport(ctx: ContactsContext & { logger: AppDeps['logger'] }, fileName: string, body: Buffer) {
  const text = body.toString('utf8');
  const rows = readCsv(text);
  const [header, ...data] = rows;
  const nonEmpty = data.filter((r) => r.some((cell) => cell.trim() !== ''));
  if (!header || nonEmpty.length === 0) throw fail('BAD_REQUEST', M.emptyFile);
  if (nonEmpty.length > IMPORT_MAX_ROWS) throw fail('BAD_REQUEST', M.tooManyRows);
  const extras = await extraFields(ctx.db, ctx.company.id);
  const columns = mapColumns(header, extras);
  if (!columns.some((c) => c.kind === 'base' && c.key === 'name')) throw fail('BAD_REQUEST', M.noNameColumn);
  // Row numbers as a spreadsheet shows them: the header is row 1.
  const pending: PendingRow[] = [];
  data.forEach((cells, i) => {
    const row = i + 2;
    if (!cells.some((cell) => cell.trim() !== '')) return;
    if (cells.length !== header.length) return void pending.push({ row, error: M.columnCount });
    const result = checkContact(rowToInput(cells, columns), extras);
    pending.push(result.ok ? { row, contact: result.contact } : { row, error: rowErrorText(result.errors) });
  });
  const job = await ctx.db.contactImport.create({
    data: {
      companyId: ctx.company.id,
      userId: ctx.user.id,
      fileName: fileName.slice(0, 255),
      total: pending.length,
      pending: pending as unknown as Prisma.InputJsonValue,
      heartbeatAt: ctx.clock.now(),
      createdAt: ctx.clock.now(),
    },
  });
  void runImport(ctx, job.id).catch((err) => ctx.logger.error({ err, importId: job.id }, 'contact import failed'));
  return { importId: job.id, total: job.total };
}

/** Writes the rest of an import, a batch at a time, telling the importer after each. */
export async function runImport(deps: ImportDeps, importId: string) {
  for (;;) {
    const progress = await deps.db.$transaction(async (tx) => writeBatch(deps, tx, importId), { maxWait: 10_000, timeout: 60_000 });
    if (!progress) return;
    deps.realtime.toUser(progress.userId, 'contacts:import', progress.event);
    if (progress.event.status !== 'running') return;
  }
}

async function writeBatch(deps: ImportDeps, tx: Prisma.TransactionClient, importId: string) {
  // The job's row lock: two runners of one import (a resume racing the first) take turns, and the
  // second starts where the first stopped.
  const [locked] = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM "ContactImport" WHERE id = ${importId}::uuid AND status = 'running' FOR UPDATE`;
  if (!locked) return null;
  const job = await tx.contactImport.findUniqueOrThrow({ where: { id: importId } });
  const pending = job.pending as unknown as PendingRow[];
  const batch = pending.slice(job.processed, job.processed + BATCH);
  const errors = [...(job.errors as { row: number; message: string }[])];
  let created = 0;
  let updated = 0;
  const now = deps.clock.now();
  for (const item of batch) {
    if ('error' in item) {
      errors.push({ row: item.row, message: item.error });
      continue;
    }
    const c = item.contact;
    const existing = c.email ? await tx.contact.findFirst({ where: { companyId: job.companyId, email: c.email }, orderBy: { createdAt: 'asc' } }) : null;
    if (existing) {
      // What the file says wins; what it leaves empty keeps the directory's value.
      await tx.contact.update({
        where: { id: existing.id },
        data: {
          name: c.name,
          phone: c.phone ?? existing.phone,
          organization: c.organization || existing.organization,
          fields: { ...(existing.fields as Record<string, string>), ...c.fields },
          tags: cleanTags([...existing.tags, ...c.tags]),
          notes: c.notes || existing.notes,
          updatedAt: now,
        },
      });
      updated++;
    } else {
      await tx.contact.create({ data: { ...c, companyId: job.companyId, source: 'import', createdAt: now, updatedAt: now } });
      created++;
    }
  }
  const processed = job.processed + batch.length;
  // Nothing left to write yet not all counted: the rows are gone (never expected); stop, say so.
  const lost = batch.length === 0 && processed < job.total;
  const done = processed >= job.total;
  const saved = await tx.contactImport.update({
    where: { id: job.id },
    data: {
      processed,
      created: { increment: created },
      updated: { increment: updated },
      errors,
      heartbeatAt: now,
      ...(done && { status: 'done', finishedAt: now, pending: [] }),
      ...(lost && { status: 'failed', finishedAt: now }),
    },
  });
  return {
    userId: job.userId,
    event: { importId: job.id, status: saved.status as 'running' | 'done' | 'failed', total: saved.total, processed, created: saved.created, updated: saved.updated, failed: errors.length },
  };
}

/** The import as the progress bar and the report show it (the importer's own, in this company). */
export async function importStatus(ctx: ContactsContext, importId: string) {
  const job = await ctx.db.contactImport.findFirst({ where: { id: importId, companyId: ctx.company.id, userId: ctx.user.id } });
  if (!job) throw fail('NOT_FOUND', M.importNotFound);
  const errors = job.errors as { row: number; message: string }[];
  return {
    importId: job.id,
    fileName: job.fileName,
    status: job.status as 'running' | 'done' | 'failed',
    total: job.total,
    processed: job.processed,
    created: job.created,
    updated: job.updated,
    failed: errors.length,
    errors,
    createdAt: job.createdAt,
    finishedAt: job.finishedAt,
  };
}

/** Takes up imports cut short (their runner stopped writing): one instance per import. */
export async function resumeImports(deps: ImportDeps): Promise<number> {
  const stale = new Date(deps.clock.now().getTime() - STALE_MS);
  const claimed = await deps.db.$queryRaw<{ id: string }[]>`
    UPDATE "ContactImport" SET "heartbeatAt" = ${deps.clock.now()}
    WHERE id IN (SELECT id FROM "ContactImport" WHERE status = 'running' AND "heartbeatAt" < ${stale} ORDER BY "heartbeatAt" LIMIT 5 FOR UPDATE SKIP LOCKED)
    RETURNING id`;
  for (const { id } of claimed) await runImport(deps, id);
  return claimed.length;
}
