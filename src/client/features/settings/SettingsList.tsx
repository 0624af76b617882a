import { Trans } from '@lingui/react/macro';
import { useState, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { Dialog } from '../../ui/Dialog';
import { FormError, FormNotice } from '../../ui/Form';
import { Spinner } from '../../ui/Spinner';
import { RowActions } from './RowActions';
import { useServerText } from './serverText';

interface Named {
  id: string;
  name: string;
}

/**
 * The list screen of an admin settings area (queues, groups): a table whose first column links
 * to the row's page, an Edit/Delete cell, a "new" button, and removal behind a confirmation with
 * its outcome said above the table. The area gives its columns, texts and remove call.
 */
export function SettingsList<Row extends Named>(props: {
  list: { isPending: boolean; error: { message: string } | null; data?: Row[] };
  nameHeader: ReactNode;
  /** Under the name in the first column (a key, a hint). */
  nameDetail?: (row: Row) => ReactNode;
  columns: { header: ReactNode; cell: (row: Row) => ReactNode }[];
  newLabel: ReactNode;
  removeTitle: (row: Row) => string;
  removedNotice: (row: Row) => string;
  removeDetail?: ReactNode;
  remove: { isPending: boolean; error: { message: string } | null; reset: () => void; run: (row: Row) => Promise<unknown> };
}) {
  const serverText = useServerText();
  const navigate = useNavigate();
  const [removing, setRemoving] = useState<Row | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const { list, remove } = props;

  async function confirmRemove(row: Row) {
    try {
      await remove.run(row);
      setNotice(props.removedNotice(row));
    } catch {
      // The mutation's error is shown above the table.
    } finally {
      setRemoving(null);
    }
  }

  if (list.isPending) return <Spinner />;
  if (list.error || !list.data) return <FormError message={list.error ? serverText(list.error.message) : null} />;
  return (
    <section className="settings-section">
      <FormError message={remove.error ? serverText(remove.error.message) : null} />
      {notice && <FormNotice>{notice}</FormNotice>}
      <table className="settings-table">
        <thead>
          <tr>
            <th scope="col">{props.nameHeader}</th>
            {props.columns.map((c, i) => (
              <th scope="col" key={i}>
                {c.header}
              </th>
            ))}
            <th scope="col">
              <span className="visually-hidden">
                <Trans>Actions</Trans>
              </span>
            </th>
          </tr>
        </thead>
        <tbody>
          {list.data.map((row) => (
            <tr key={row.id}>
              <th scope="row">
                <Link to={row.id}>{row.name}</Link>
                {props.nameDetail?.(row)}
              </th>
              {props.columns.map((c, i) => (
                <td key={i}>{c.cell(row)}</td>
              ))}
              <RowActions
                name={row.name}
                deleting={remove.isPending}
                onEdit={() => void navigate(row.id)}
                onDelete={() => {
                  setNotice(null);
                  remove.reset();
                  setRemoving(row);
                }}
              />
            </tr>
          ))}
        </tbody>
      </table>
      <Link className="button" to="new">
        {props.newLabel}
      </Link>
      {removing && (
        <Dialog
          title={props.removeTitle(removing)}
          onClose={() => setRemoving(null)}
          onConfirm={() => void confirmRemove(removing)}
          confirmLabel={<Trans>Remove</Trans>}
          busy={remove.isPending}
        >
          {props.removeDetail}
        </Dialog>
      )}
    </section>
  );
}
