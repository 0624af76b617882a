import { useLingui } from '@lingui/react/macro';
import { useEffect, useRef, useState, type InputHTMLAttributes, type ReactNode } from 'react';
import { useSearchParams } from 'react-router-dom';
import { cardPaymentInput } from '../../../shared/schemas/billing';
import { useServerMessage } from '../../guard/company';
import { trpc } from '../../trpc';
import { FormError, TextField } from '../../ui';
import { CardRejected, cardToken, loadDirectPayment, senderHash, type DirectPayment } from './pagseguro-direct';

const EMPTY = { number: '', name: '', expiry: '', cvv: '', cpf: '', birthDate: '', areaCode: '', phone: '', postalCode: '', street: '', streetNumber: '', complement: '', district: '', city: '', state: '' };
type Field = keyof typeof EMPTY;

/**
 * The card form of /i/recarga (PagSeguro's transparent checkout): the card is tokenised in the
 * browser by PagSeguro's script, and only the token, the sender hash and the holder's details are
 * sent to our server. Once paid or pending, the page follows the payment like a return from
 * checkout (?payment=<id>).
 */
export function useCardPayment(
  domain: string,
  enabled: boolean,
  onSubscribed?: (status: string) => void,
): { fields: ReactNode; pay: (what: { amount: string } | { planKey: string }) => void; pending: boolean; error: string | null } {
  const { t } = useLingui();
  const serverMessage = useServerMessage();
  const [, setParams] = useSearchParams();
  const utils = trpc.useUtils();
  const [v, setV] = useState(EMPTY);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const api = useRef<Promise<DirectPayment> | null>(null);
  const session = trpc.billing.cardSession.useMutation();
  const payByCard = trpc.billing.payByCard.useMutation();
  const subscribeByCard = trpc.billing.subscribeByCard.useMutation();

  // The session and the script are fetched when the card form shows, so paying is quick.
  const { mutateAsync: openSession } = session;
  useEffect(() => {
    if (!enabled || api.current) return;
    api.current = openSession({ domain }).then((s) => loadDirectPayment(s.scriptUrl, s.sessionId));
    api.current.catch(() => (api.current = null));
  }, [enabled, domain, openSession]);

  const set = (f: Field) => (e: { target: { value: string } }) => setV((old) => ({ ...old, [f]: e.target.value }));
  const field = (f: Field, label: string, extra: Pick<InputHTMLAttributes<HTMLInputElement>, 'inputMode' | 'autoComplete' | 'placeholder' | 'maxLength'> = {}) => (
    <TextField label={label} value={v[f]} onChange={set(f)} error={errors[f] ?? null} {...extra} />
  );

  const pay = (what: { amount: string } | { planKey: string }) => {
    // A plan has no amount to check here (the server prices it); the details are checked the same.
    const amount = 'amount' in what ? what.amount : '1';
    const found: Partial<Record<Field, string>> = {};
    const number = v.number.replace(/\D/g, '');
    const exp = /^\s*(0[1-9]|1[0-2])\s*\/\s*(\d{2}|\d{4})\s*$/.exec(v.expiry);
    if (!/^\d{13,19}$/.test(number)) found.number = t`Type the card number as printed on it`;
    if (!exp) found.expiry = t`Type the expiry as MM/YY`;
    if (!/^\d{3,4}$/.test(v.cvv.trim())) found.cvv = t`Type the 3 or 4 digits of the security code`;
    const details = {
      domain,
      amount,
      cardToken: 'x'.repeat(8),
      senderHash: 'x'.repeat(8),
      holder: { name: v.name, cpf: v.cpf, birthDate: v.birthDate, areaCode: v.areaCode, phone: v.phone },
      billing: { street: v.street, number: v.streetNumber, complement: v.complement || undefined, district: v.district, postalCode: v.postalCode, city: v.city, state: v.state },
    };
    const parsed = cardPaymentInput.safeParse(details);
    if (!parsed.success) {
      const byPath: Record<string, Field> = { 'holder.name': 'name', 'holder.cpf': 'cpf', 'holder.birthDate': 'birthDate', 'holder.areaCode': 'areaCode', 'holder.phone': 'phone', 'billing.street': 'street', 'billing.number': 'streetNumber', 'billing.complement': 'complement', 'billing.district': 'district', 'billing.postalCode': 'postalCode', 'billing.city': 'city', 'billing.state': 'state' };
      for (const issue of parsed.error.issues) {
        const f = byPath[issue.path.join('.')];
        if (f && !found[f]) found[f] = t`Check this field`;
      }
    }
    setErrors(found);
    setError(null);
    if (Object.keys(found).length || !parsed.success || !exp) return;
    const year = exp[2]!.length === 2 ? `20${exp[2]}` : exp[2]!;
    setBusy(true);
    void (async () => {
      try {
        if (!api.current) api.current = openSession({ domain }).then((s) => loadDirectPayment(s.scriptUrl, s.sessionId));
        const direct = await api.current.catch((err) => {
          api.current = null;
          throw err;
        });
        const token = await cardToken(direct, { number, cvv: v.cvv.trim(), month: exp[1]!, year });
        const hash = await senderHash(direct);
        if ('planKey' in what) {
          const { amount: _amount, ...details } = parsed.data;
          const sub = await subscribeByCard.mutateAsync({ ...details, planKey: what.planKey, cardToken: token, senderHash: hash });
          setV(EMPTY);
          void Promise.all([utils.billing.subscription.invalidate(), utils.billing.plans.invalidate(), utils.billing.balance.invalidate(), utils.billing.statement.invalidate()]);
          onSubscribed?.(sub.status);
          return;
        }
        const payment = await payByCard.mutateAsync({ ...parsed.data, cardToken: token, senderHash: hash });
        void Promise.all([utils.billing.balance.invalidate(), utils.billing.payments.invalidate(), utils.billing.statement.invalidate()]);
        // The card's details leave the page; the notice above follows the payment.
        setV(EMPTY);
        setParams({ payment: payment.id });
      } catch (err) {
        if (err instanceof CardRejected) setError(t`PagSeguro did not accept this card: check the number, the expiry and the security code.`);
        else if (err && typeof err === 'object' && 'data' in err) setError(serverMessage(err as unknown as { message: string }));
        else setError(t`The card form could not reach PagSeguro; try again, or pay on the provider's page.`);
      } finally {
        setBusy(false);
      }
    })();
  };

  const fields = enabled ? (
    <fieldset className="credits-card" aria-describedby="credits-card-note">
      <legend>{t`Card`}</legend>
      <p id="credits-card-note" className="muted">{t`The card number, expiry and security code go straight to PagSeguro; this app never receives them.`}</p>
      {field('number', t`Card number`, { inputMode: 'numeric', autoComplete: 'cc-number' })}
      {field('name', t`Name on the card`, { autoComplete: 'cc-name' })}
      <div className="credits-card-row">
        {field('expiry', t`Expiry (MM/YY)`, { inputMode: 'numeric', autoComplete: 'cc-exp', placeholder: 'MM/YY' })}
        {field('cvv', t`Security code`, { inputMode: 'numeric', autoComplete: 'cc-csc' })}
      </div>
      {field('cpf', t`Card holder's CPF`, { inputMode: 'numeric' })}
      {field('birthDate', t`Card holder's date of birth (DD/MM/YYYY)`, { inputMode: 'numeric', autoComplete: 'bday' })}
      <div className="credits-card-row">
        {field('areaCode', t`Area code`, { inputMode: 'numeric', autoComplete: 'tel-area-code' })}
        {field('phone', t`Phone`, { inputMode: 'tel', autoComplete: 'tel-local' })}
      </div>
      <p className="muted">{t`Billing address of the card`}</p>
      {field('postalCode', t`Postal code (CEP)`, { inputMode: 'numeric', autoComplete: 'postal-code' })}
      {field('street', t`Street`, { autoComplete: 'address-line1' })}
      <div className="credits-card-row">
        {field('streetNumber', t`Number`)}
        {field('complement', t`Complement (optional)`, { autoComplete: 'address-line2' })}
      </div>
      {field('district', t`District`)}
      <div className="credits-card-row">
        {field('city', t`City`, { autoComplete: 'address-level2' })}
        {field('state', t`State (two letters)`, { autoComplete: 'address-level1', maxLength: 2 })}
      </div>
      <FormError message={error} />
    </fieldset>
  ) : null;
  return { fields, pay, pending: busy, error };
}
