/**
 * Remote assistance (call tipo 4): the customer's shared screen with the attendant's annotations.
 * The attendant draws on it (pointer, pen, arrow, clear) and the strokes go over the call's data
 * channel; the customer sees the same strokes over their own preview of what they share. Drawing
 * is a canvas over the picture, sized to the picture's aspect ratio so that the 0–1 coordinates
 * of a point mean the same spot on both sides.
 */
import { Trans, useLingui } from '@lingui/react/macro';
import { ArrowUpRight, Eraser, MousePointer2, Pencil, ScreenShare, type LucideIcon } from 'lucide-react';
import { useEffect, useRef, useState, type CSSProperties, type KeyboardEvent, type PointerEvent } from 'react';
import { addPoint, arrowHead, POINTER_FADE_MS, toPoint, type Annotation, type AnnotationScene, type AnnotationTool, type Stroke } from '../../../shared/domain/annotations';
import { IconButton } from '../../ui/Button';

const COLOR = '#f43f5e';
/** How often a growing stroke is sent (ms): smooth on the other side, few messages. */
const SEND_EVERY_MS = 40;

/** The shared screen with its annotation layer; `onAnnotate` makes it drawable (the attendant). */
export function AnnotatedScreen({
  track,
  label,
  scene,
  tool = 'pointer',
  onAnnotate,
}: {
  track: MediaStreamTrack;
  label: string;
  scene: AnnotationScene;
  tool?: AnnotationTool;
  onAnnotate?: (a: Annotation) => void;
}) {
  const { t } = useLingui();
  const hint = t`Draw with the mouse or a finger; the arrow keys move the pointer.`;
  const video = useRef<HTMLVideoElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const [ratio, setRatio] = useState<number | null>(null);
  const drawing = useRef<{ stroke: Stroke; sentAt: number } | null>(null);
  const [pointerVisible, setPointerVisible] = useState(false);

  useEffect(() => {
    const v = video.current;
    if (!v) return;
    v.srcObject = new MediaStream([track]);
    const measure = () => v.videoWidth > 0 && setRatio(v.videoWidth / v.videoHeight);
    v.addEventListener('loadedmetadata', measure);
    v.addEventListener('resize', measure);
    return () => {
      v.removeEventListener('loadedmetadata', measure);
      v.removeEventListener('resize', measure);
    };
  }, [track]);

  // The pointer fades when it stops moving, on both sides.
  useEffect(() => {
    if (!scene.pointer) return;
    setPointerVisible(true);
    const timer = setTimeout(() => setPointerVisible(false), POINTER_FADE_MS);
    return () => clearTimeout(timer);
  }, [scene.pointer]);

  useEffect(() => {
    const c = canvas.current;
    if (!c) return;
    const { width, height } = c.getBoundingClientRect();
    c.width = Math.round(width);
    c.height = Math.round(height);
    const ctx = c.getContext('2d');
    if (!ctx) return;
    ctx.clearRect(0, 0, c.width, c.height);
    ctx.strokeStyle = COLOR;
    ctx.fillStyle = COLOR;
    ctx.lineWidth = 4;
    ctx.lineCap = 'round';
    ctx.lineJoin = 'round';
    const px = ([x, y]: readonly [number, number]) => [x * c.width, y * c.height] as const;
    for (const s of scene.strokes) {
      ctx.beginPath();
      s.points.forEach((p, i) => (i === 0 ? ctx.moveTo(...px(p)) : ctx.lineTo(...px(p))));
      if (s.tool === 'arrow' && s.points.length === 2) {
        const [from, to] = s.points as [Stroke['points'][0], Stroke['points'][0]];
        for (const wing of arrowHead(from, to, c.width, c.height)) {
          ctx.moveTo(...px(to));
          ctx.lineTo(...px(wing));
        }
      }
      ctx.stroke();
    }
    if (scene.pointer && pointerVisible) {
      ctx.beginPath();
      ctx.arc(...px(scene.pointer), 9, 0, 2 * Math.PI);
      ctx.globalAlpha = 0.6;
      ctx.fill();
      ctx.globalAlpha = 1;
    }
  }, [scene, pointerVisible, ratio]);

  const pointOf = (e: PointerEvent<HTMLCanvasElement>) => {
    const r = e.currentTarget.getBoundingClientRect();
    return toPoint(e.clientX - r.left, e.clientY - r.top, r.width, r.height);
  };
  const down = (e: PointerEvent<HTMLCanvasElement>) => {
    if (!onAnnotate) return;
    const at = pointOf(e);
    if (tool === 'pointer') return onAnnotate({ kind: 'pointer', at });
    e.currentTarget.setPointerCapture(e.pointerId);
    const stroke: Stroke = { kind: 'stroke', id: `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`, tool, points: [at] };
    drawing.current = { stroke, sentAt: Date.now() };
    onAnnotate(stroke);
  };
  const move = (e: PointerEvent<HTMLCanvasElement>) => {
    if (!onAnnotate) return;
    const at = pointOf(e);
    if (tool === 'pointer') return onAnnotate({ kind: 'pointer', at });
    const d = drawing.current;
    if (!d) return;
    d.stroke = addPoint(d.stroke, at);
    if (Date.now() - d.sentAt >= SEND_EVERY_MS) {
      d.sentAt = Date.now();
      onAnnotate(d.stroke);
    }
  };
  const up = () => {
    const d = drawing.current;
    drawing.current = null;
    if (d && onAnnotate) onAnnotate(d.stroke);
  };

  // Keyboard: with the picture focused, the arrow keys move the pointer (Shift: bigger steps).
  const keyPointer = useRef<[number, number]>([0.5, 0.5]);
  const key = (e: KeyboardEvent<HTMLCanvasElement>) => {
    const step = e.shiftKey ? 0.1 : 0.02;
    const d = ({ ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] } as Record<string, [number, number]>)[e.key];
    if (!d || !onAnnotate) return;
    e.preventDefault();
    const [x, y] = keyPointer.current;
    const at = toPoint(x + d[0], y + d[1], 1, 1);
    keyPointer.current = at;
    onAnnotate({ kind: 'pointer', at });
  };

  return (
    <div className="remote-screen" style={ratio ? ({ '--ratio': `${ratio}` } as CSSProperties) : undefined}>
      <video ref={video} autoPlay playsInline muted aria-label={label} />
      <canvas
        ref={canvas}
        className={onAnnotate ? 'remote-canvas remote-canvas-draw' : 'remote-canvas'}
        role="img"
        aria-label={onAnnotate ? label : undefined}
        aria-description={onAnnotate ? hint : undefined}
        aria-hidden={onAnnotate ? undefined : true}
        tabIndex={onAnnotate ? 0 : undefined}
        onKeyDown={key}
        data-strokes={scene.strokes.length}
        onPointerDown={down}
        onPointerMove={move}
        onPointerUp={up}
        onPointerCancel={up}
      />
    </div>
  );
}

/** The attendant's tools over the customer's screen. */
export function AnnotationTools({ tool, onTool, onClear }: { tool: AnnotationTool; onTool: (t: AnnotationTool) => void; onClear: () => void }) {
  const { t } = useLingui();
  const tools: { key: AnnotationTool; label: string; icon: LucideIcon }[] = [
    { key: 'pointer', label: t`Pointer`, icon: MousePointer2 },
    { key: 'pen', label: t`Draw`, icon: Pencil },
    { key: 'arrow', label: t`Arrow`, icon: ArrowUpRight },
  ];
  return (
    <div className="remote-tools" role="toolbar" aria-label={t`Annotations`}>
      {tools.map((x) => (
        <IconButton key={x.key} label={x.label} icon={x.icon} aria-pressed={tool === x.key} className={tool === x.key ? 'call-bar-on' : undefined} onPress={() => onTool(x.key)} />
      ))}
      <IconButton label={t`Clear the annotations`} icon={Eraser} onPress={onClear} />
    </div>
  );
}

/** What the customer sees before sharing: why, and the one button that starts it. */
export function ShareRequest({ attendant, onShare, error }: { attendant: string; onShare: () => void; error: string | null }) {
  return (
    <section className="remote-ask" aria-labelledby="remote-ask-title">
      <h2 id="remote-ask-title">
        <Trans>Remote assistance</Trans>
      </h2>
      <p>
        <Trans>{attendant} asks to see your screen to help you. They can point and draw on it; they cannot control your computer.</Trans>
      </p>
      <button type="button" className="button" onClick={onShare}>
        <ScreenShare aria-hidden="true" /> <Trans>Share my screen</Trans>
      </button>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}

/** The attendant, while the customer has not shared yet. */
export function WaitingForScreen({ customer }: { customer: string }) {
  return (
    <section className="remote-ask" aria-live="polite">
      <p>
        <Trans>Waiting for {customer} to share their screen…</Trans>
      </p>
    </section>
  );
}
