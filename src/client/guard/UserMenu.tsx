import { Trans } from '@lingui/react/macro';
import { trpc } from '../trpc';

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
  return (
    <div className="user-menu">
      <span className="user-menu-name">{user.name || user.email || user.phone}</span>
      <button type="button" className="button button-secondary button-small" disabled={signOut.isPending} onClick={() => signOut.mutate()}>
        <Trans>Sign out</Trans>
      </button>
    </div>
  );
}
