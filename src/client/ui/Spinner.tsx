import { Trans } from '@lingui/react/macro';

/**
 * While the app or an area's code starts (spec: 'Aguarde! Iniciando ...'). Data that is loading
 * shows a LoadingSkeleton instead: the shape of what is coming.
 */
export function Spinner() {
  return (
    <div className="spinner" role="status">
      <span className="spinner-ring" aria-hidden="true" />
      <Trans>Please wait! Starting ...</Trans>
    </div>
  );
}
