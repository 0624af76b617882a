import { Trans, useLingui } from '@lingui/react/macro';
import { useRef, useState } from 'react';

/**
 * A signature drawn with a finger, pen or mouse (pointer events), kept as a PNG. Keyboard users
 * can type their name instead: it is drawn in the pad as a typed signature.
 */
export function SignaturePad({ onSave, disabled }: { onSave: (png: Blob) => void; disabled?: boolean }) {
  const { t } = useLingui();
  const canvas = useRef<HTMLCanvasElement>(null);
  const drawing = useRef(false);
  const [empty, setEmpty] = useState(true);
  const [typed, setTyped] = useState('');

  const ctx = () => {
    const c = canvas.current!.getContext('2d')!;
    c.lineWidth = 2.5;
    c.lineCap = 'round';
    c.strokeStyle = '#111';
    return c;
  };
  const point = (e: React.PointerEvent<HTMLCanvasElement>) => {
    const r = e.currentTarget.getBoundingClientRect();
    return [((e.clientX - r.left) * e.currentTarget.width) / r.width, ((e.clientY - r.top) * e.currentTarget.height) / r.height] as const;
  };
  const clear = () => {
    const c = canvas.current!;
    c.getContext('2d')!.clearRect(0, 0, c.width, c.height);
    setEmpty(true);
  };
  const typeIn = (name: string) => {
    setTyped(name);
    clear();
    if (!name.trim()) return;
    const c = ctx();
    c.fillStyle = '#111';
    c.font = 'italic 40px cursive, serif';
    c.fillText(name, 16, 90);
    setEmpty(false);
  };
  const save = () => canvas.current!.toBlob((blob) => blob && onSave(blob), 'image/png');

  return (
    <div className="signature-pad">
      <canvas
        ref={canvas}
        width={480}
        height={140}
        role="img"
        aria-label={t`Signature area: draw your signature`}
        onPointerDown={(e) => {
          if (disabled) return;
          drawing.current = true;
          e.currentTarget.setPointerCapture(e.pointerId);
          const [x, y] = point(e);
          const c = ctx();
          c.beginPath();
          c.moveTo(x, y);
        }}
        onPointerMove={(e) => {
          if (!drawing.current) return;
          const [x, y] = point(e);
          const c = ctx();
          c.lineTo(x, y);
          c.stroke();
          setEmpty(false);
        }}
        onPointerUp={() => (drawing.current = false)}
        onPointerCancel={() => (drawing.current = false)}
      />
      <label className="signature-typed">
        <Trans>Or type your name to sign</Trans>
        <input value={typed} disabled={disabled} onChange={(e) => typeIn(e.target.value)} />
      </label>
      <div className="form-actions">
        <button type="button" className="button button-small" disabled={disabled || empty} onClick={save}>
          <Trans>Save signature</Trans>
        </button>
        <button
          type="button"
          className="button button-small button-secondary"
          disabled={disabled || empty}
          onClick={() => {
            setTyped('');
            clear();
          }}
        >
          <Trans>Clear</Trans>
        </button>
      </div>
    </div>
  );
}
