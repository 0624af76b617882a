import { Trans } from '@lingui/react/macro';

export function Spinner() {
  return (
    <div className="spinner" role="status">
      <span className="spinner-ring" aria-hidden="true" />
      <Trans>Please wait! Starting ...</Trans>
    </div>
  );
}
