import { useLingui } from '@lingui/react/macro';
import { useParams } from 'react-router-dom';
import { AdminScreen } from './AdminScreen';
import { InviteMembers } from './InviteMembers';
import { MemberDetail } from './MemberDetail';
import { MemberList } from './MemberList';
import { ProfilesEditor } from './ProfilesEditor';

/**
 * /i/settings/members: the people, inviting more, and the permission profiles they are given
 * (the spec lists no route of their own for profiles; they live beside the members they apply to).
 */
export function MembersPage() {
  const { t } = useLingui();
  return (
    <AdminScreen title={t`Members`}>
      {(company) => (
        <>
          <MemberList domain={company.domain} />
          <InviteMembers domain={company.domain} />
          <ProfilesEditor domain={company.domain} />
        </>
      )}
    </AdminScreen>
  );
}

/** /i/settings/members/{id} */
export function MemberPage() {
  const { t } = useLingui();
  const { id = '' } = useParams();
  return <AdminScreen title={t`Member`}>{(company) => <MemberDetail domain={company.domain} memberId={id} />}</AdminScreen>;
}
