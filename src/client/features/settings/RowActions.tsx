import { Trans, useLingui } from '@lingui/react/macro';

/** The Edit / Delete cell of a settings table row; Delete is left out for rows that cannot go. */
export function RowActions(props: { name: string; onEdit: () => void; onDelete?: () => void; deleting: boolean }) {
  const { t } = useLingui();
  return (
    <td className="row-actions">
      <button type="button" className="button button-secondary button-small" aria-label={t`Edit ${props.name}`} onClick={props.onEdit}>
        <Trans>Edit</Trans>
      </button>
      {props.onDelete && (
        <button type="button" className="button button-secondary button-small" aria-label={t`Delete ${props.name}`} disabled={props.deleting} onClick={props.onDelete}>
          <Trans>Delete</Trans>
        </button>
      )}
    </td>
  );
}
