import { Trans } from '@lingui/react/macro';
import { Stethoscope } from 'lucide-react';
import { trpc } from '../../trpc';
import { ButtonLink } from '../../ui';

/** On a telemedicine company's public page: the way to a consultation (nothing for other companies). */
export function ConsultationLink({ domain }: { domain: string }) {
  const offered = trpc.telemedicine.offered.useQuery({ domain }, { staleTime: 60_000 });
  if (!offered.data?.offered) return null;
  return (
    <ButtonLink icon={Stethoscope} to={`/${domain}/consultation`}>
      <Trans>Talk to a doctor</Trans>
    </ButtonLink>
  );
}
