import { Trans } from '@lingui/react/macro';
import { LogOut } from 'lucide-react';
import { trpc } from '../trpc';
import { Avatar } from '../ui/Avatar';
import { ShellButton } from '../ui/ShellButtons';

/** The header's account corner: who is signed in, and the way out. Nothing for anonymous visitors. */
export function UserMenu() {
  const me = trpc.auth.me.useQuery();
  const signOut = trpc.auth.signOut.useMutation({
    // Spec: "desconectar" leads to /i/login/entrar. A full page load rather than a client-side
    // navigation: it drops every cache and socket of the old session at once, and the guard can
    // never see "no user" on an app screen in between (it would sign in anonymously again).
    onSuccess: () => window.location.assign('/i/login/entrar'),
  });
  const user = me.data?.user;
  if (!user || user.anonymous) return null;
  const name = user.name || user.email || user.phone || '';
  return (
    <div className="user-menu">
      <Avatar name={name} seed={user.id} size={30} />
      <span className="user-menu-name">{name}</span>
      <ShellButton variant="quiet" size="small" icon={LogOut} isPending={signOut.isPending} onClick={() => signOut.mutate()}>
        <span className="button-label">
          <Trans>Sign out</Trans>
        </span>
      </ShellButton>
    </div>
  );
}
