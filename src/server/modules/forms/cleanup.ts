/**
 * Files of forms nobody can reach any more: forms whose conversation was deleted (the chat deletes
 * conversations; their forms are left without one) and forms never submitted of a deleted
 * template. A periodic job deletes their stored files, then the rows. Safe on several instances
 * at once: deleting an object twice is not an error, and only the instance that deletes a row
 * gives its bytes back.
 */
import { filesOf } from '../../../shared/domain/forms';
import type { Db } from '../../db/client';
import type { ObjectStore } from '../../storage';
import { refundConversationFile } from '../chat/service';

const BATCH = 200;

export async function purgeUnreachableForms(deps: { db: Db; storage: ObjectStore }): Promise<number> {
  const rows = await deps.db.filledForm.findMany({
    where: { OR: [{ conversationId: null }, { status: 'draft', template: { deletedAt: { not: null } } }] },
    select: { id: true, values: true, conversationId: true },
    take: BATCH,
  });
  let purged = 0;
  for (const row of rows) {
    const files = filesOf((row.values ?? {}) as Record<string, unknown>);
    for (const file of files) await deps.storage.delete(file.key);
    const bytes = files.reduce((n, f) => n + f.size, 0);
    purged += await deps.db.$transaction(async (tx) => {
      const { count } = await tx.filledForm.deleteMany({ where: { id: row.id } });
      if (count && row.conversationId && bytes) await refundConversationFile(tx, row.conversationId, bytes);
      return count;
    });
  }
  return purged;
}
