import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { WIDGET_COLOR, WIDGET_GREETING_MAX, WIDGET_LABEL_MAX, widgetTag, type WidgetSettings } from '../../../shared/domain/widget';
import { WIDGET_MESSAGES } from '../../../shared/schemas/widget';
import { trpc } from '../../trpc';
import { Button, FormError, RadioGroup, TextAreaField, TextField } from '../../ui';
import { Spinner } from '../../ui/Spinner';
import { AdminScreen } from './AdminScreen';
import { EditForm, useDraft } from './EditForm';
import { useServerText } from './serverText';

/**
 * /i/settings/widget: how the chat widget looks on the company's own site (colour, greeting,
 * launcher label, side) and the tag to paste there. The tag carries only the domain, so a change
 * here reaches every site that already has it; data-attributes on a tag still override.
 */
export function WidgetSettingsPage() {
  const { t } = useLingui();
  return <AdminScreen title={t`Website widget`}>{(company) => <Loader domain={company.domain} />}</AdminScreen>;
}

function Loader({ domain }: { domain: string }) {
  const serverText = useServerText();
  const settings = trpc.settings.widget.useQuery({ domain });
  if (settings.isPending) return <Spinner />;
  if (settings.isError) return <FormError message={serverText(settings.error.message)} />;
  return <WidgetForm domain={domain} initial={settings.data} />;
}

function WidgetForm({ domain, initial }: { domain: string; initial: WidgetSettings }) {
  const { t } = useLingui();
  const serverText = useServerText();
  const utils = trpc.useUtils();
  const draft = useDraft(initial);
  const update = trpc.settings.updateWidget.useMutation();
  const v = draft.values;
  const colorOk = WIDGET_COLOR.test(v.color.trim());

  async function save(): Promise<boolean> {
    if (!colorOk) return false;
    try {
      const saved = await update.mutateAsync({ domain, ...v });
      draft.commit(saved);
      await utils.settings.widget.invalidate({ domain });
      return true;
    } catch {
      return false;
    }
  }

  return (
    <EditForm draft={draft} save={save} pending={update.isPending} error={update.error ? serverText(update.error.message) : null} label={t`Website widget`}>
      <p className="muted">
        <Trans>A chat button on your own website: visitors talk to your queues without leaving it.</Trans>
      </p>
      <div className="widget-color-row">
        <TextField
          label={t`Colour`}
          value={v.color}
          maxLength={7}
          error={colorOk ? null : serverText(WIDGET_MESSAGES.badColor)}
          onChange={(e) => draft.set('color', e.target.value)}
        />
        <input
          type="color"
          className="widget-color-picker"
          aria-label={t`Pick a colour`}
          value={colorOk && v.color.length === 7 ? v.color : '#1f5fbf'}
          onChange={(e) => draft.set('color', e.target.value)}
        />
      </div>
      <TextAreaField
        label={t`Greeting`}
        hint={t`Shown beside the button and at the top of the chat. Empty: a standard greeting in the visitor's language.`}
        value={v.greeting}
        maxLength={WIDGET_GREETING_MAX}
        onChange={(e) => draft.set('greeting', e.target.value)}
      />
      <TextField
        label={t`Button label`}
        hint={t`Read by screen readers and shown on the chat's title bar. Empty: "Chat with us" in the visitor's language.`}
        value={v.label}
        maxLength={WIDGET_LABEL_MAX}
        onChange={(e) => draft.set('label', e.target.value)}
      />
      <RadioGroup
        label={t`Position`}
        orientation="horizontal"
        value={v.position}
        onChange={(p) => draft.set('position', p === 'left' ? 'left' : 'right')}
        options={[
          { value: 'right', label: t`Bottom right` },
          { value: 'left', label: t`Bottom left` },
        ]}
      />
      <TagToCopy domain={domain} />
    </EditForm>
  );
}

function TagToCopy({ domain }: { domain: string }) {
  const { t } = useLingui();
  const [copied, setCopied] = useState<boolean | null>(null);
  const tag = widgetTag(window.location.origin, domain);
  return (
    <div className="widget-tag">
      <TextAreaField
        label={t`Code for your website`}
        hint={t`Paste it before </body> on every page that should show the chat.`}
        readOnly
        value={tag}
        rows={3}
        onFocus={(e) => e.currentTarget.select()}
      />
      <Button
        variant="secondary"
        onPress={() =>
          void navigator.clipboard?.writeText(tag).then(
            () => setCopied(true),
            () => setCopied(false),
          )
        }
      >
        <Trans>Copy code</Trans>
      </Button>
      <p role="status" className="muted">
        {copied === true && <Trans>Code copied</Trans>}
        {copied === false && <Trans>Could not copy: select the code and copy it yourself</Trans>}
      </p>
    </div>
  );
}
