import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useRef, useState, type CSSProperties, type ReactNode } from 'react';
import { useParams, useSearchParams } from 'react-router-dom';
import { CONVERSATION_TYPE } from '../../../shared/constants';
import { domainSchema } from '../../../shared/schemas/company';
import { setWidgetToken, widgetToken } from '../../embed';
import { trpc } from '../../trpc';
import { Button } from '../../ui/Button';
import { NotFound } from '../../ui/NotFound';
import { Spinner } from '../../ui/Spinner';
import { CustomerConversation } from '../service/CustomerConversation';
import { RequestForm } from './ServicePages';

/**
 * /{emp}/widget: the messenger inside the embeddable widget's iframe (served by /widget.js on the
 * company's own site). No app frame around it: the company's name, its greeting, then the
 * request form or the conversation. The request's id rides in the address like on the queue page.
 */
export function WidgetPage() {
  const { emp } = useParams();
  if (!domainSchema.safeParse(emp).success) return <NotFound />;
  return (
    <WidgetSession>
      <WidgetMessenger domain={emp!} />
    </WidgetSession>
  );
}

/**
 * An anonymous visitor's session kept in a token (see embed.ts), made on first visit. Never the
 * cookie's user: a page that frames us must not act as a member who happens to be signed in here.
 */
function WidgetSession({ children }: { children: ReactNode }) {
  const utils = trpc.useUtils();
  const [hasToken, setHasToken] = useState(() => !!widgetToken());
  const me = trpc.auth.me.useQuery(undefined, { retry: 2, enabled: hasToken });
  const start = trpc.auth.embedSession.useMutation({
    onSuccess: (r) => {
      setWidgetToken(r.token);
      utils.auth.me.setData(undefined, r.me);
      setHasToken(true);
    },
  });
  // No token yet, or an expired one (the server no longer knows it).
  const needsSession = !hasToken || (me.isSuccess && !me.data.user);
  // A ref: StrictMode runs effects twice, and two calls would make two visitors.
  const started = useRef(false);
  useEffect(() => {
    if (!needsSession || started.current) return;
    started.current = true;
    setWidgetToken(null);
    start.mutate(undefined, { onSettled: () => (started.current = false) });
  }, [needsSession, start]);
  if (me.isError || start.isError) {
    return (
      <p className="widget-body notice-warn" role="alert">
        <Trans>The chat could not start. Check your connection and try again.</Trans>
      </p>
    );
  }
  if (needsSession || !me.data?.user) return <Spinner />;
  return children;
}

const HEX = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i;

function WidgetMessenger({ domain }: { domain: string }) {
  const { t } = useLingui();
  const [search, setSearch] = useSearchParams();
  const page = trpc.customer.companyPage.useQuery({ domain }, { retry: false });
  const open = trpc.customer.openServices.useQuery({ domain });
  const conversationId = search.get('id');
  const chosenQueue = search.get('queue');
  const greeting = search.get('greeting')?.slice(0, 200);
  const color = search.get('color') ?? '';
  const update = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(search);
    for (const [k, v] of Object.entries(changes)) v === null ? next.delete(k) : next.set(k, v);
    setSearch(next, { replace: true });
  };
  // A returning visitor comes back to the chat they left open.
  const resume = open.data?.find((s) => s.type !== CONVERSATION_TYPE.ticket);
  // Keyed on the found id only: `update` changes with every address change and would loop.
  useEffect(() => {
    if (!conversationId && resume) update({ id: resume.conversationId });
  }, [resume?.conversationId]);

  if (page.isPending || open.isPending) return <Spinner />;
  if (page.isError) {
    return (
      <p className="widget-body notice-warn" role="alert">
        <Trans>This chat is not available.</Trans>
      </p>
    );
  }
  const c = page.data;
  // The script passes the tag's values (over the company's); opened directly, the company's own.
  const look = HEX.test(color) ? color : c.widget.color;
  const hello = greeting || c.widget.greeting;
  const queueKey = chosenQueue ?? (c.queues.length === 1 ? c.queues[0]!.key : null);
  return (
    <div className="widget-page" style={{ '--widget-color': look } as CSSProperties}>
      <header className="widget-header">
        {c.hasImage && <img className="widget-logo" src={`/companies/${c.domain}/image`} alt="" />}
        <h1>{c.name}</h1>
      </header>
      <main className="widget-body">
        {conversationId ? (
          <CustomerConversation conversationId={conversationId} onNewService={() => update({ id: null, queue: null })} />
        ) : (
          <>
            <p className="widget-greeting">{hello || t`Hello! How can we help you?`}</p>
            {!c.takingRequests || c.queues.length === 0 ? (
              <p className="notice-warn" role="status">
                <Trans>This company is not taking requests at the moment</Trans>
              </p>
            ) : queueKey ? (
              <RequestForm domain={domain} queueKey={queueKey} onSent={(id) => update({ id })} />
            ) : (
              <>
                <p>
                  <Trans>Choose the subject of your request:</Trans>
                </p>
                <ul className="choice-list">
                  {c.queues.map((q) => (
                    <li key={q.key}>
                      <Button variant="secondary" onPress={() => update({ queue: q.key })}>
                        {q.name}
                      </Button>
                    </li>
                  ))}
                </ul>
              </>
            )}
          </>
        )}
      </main>
    </div>
  );
}
