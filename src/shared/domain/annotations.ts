/**
 * Remote assistance annotations: what the attendant draws over the customer's shared screen,
 * sent as small JSON messages over the call's data channel (mediasoup DataProducer → DataConsumer).
 * mediasoup relays the bytes as they are, so the receiving page parses each message with
 * `parseAnnotation` and ignores anything else. Coordinates are fractions of the shared picture
 * (0–1, 4 decimals), so a point lands on the same spot whatever the size of either screen.
 */
import { z } from 'zod';

/** The data channel's label (the server opens only this one, for the owner of a tipo-4 call). */
export const ANNOTATION_LABEL = 'annotations';
export const ANNOTATION_TOOLS = ['pointer', 'pen', 'arrow'] as const;
export type AnnotationTool = (typeof ANNOTATION_TOOLS)[number];
/** A freehand stroke keeps at most this many points; a longer one is thinned (see `addPoint`). */
export const STROKE_MAX_POINTS = 400;
/** The pointer disappears when it has not moved for this long. */
export const POINTER_FADE_MS = 3_000;

const coord = z.number().min(0).max(1);
const point = z.tuple([coord, coord]);
export type Point = z.infer<typeof point>;

const annotationSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('pointer'), at: point }),
  z.object({
    kind: z.literal('stroke'),
    id: z.string().regex(/^[A-Za-z0-9_-]{1,40}$/),
    tool: z.enum(['pen', 'arrow']),
    points: z.array(point).min(1).max(STROKE_MAX_POINTS),
  }),
  z.object({ kind: z.literal('clear') }),
]);
export type Annotation = z.infer<typeof annotationSchema>;
export type Stroke = Extract<Annotation, { kind: 'stroke' }>;

/** A message from the channel, or null when it is not one of ours. */
export function parseAnnotation(raw: unknown): Annotation | null {
  if (typeof raw !== 'string' || raw.length > 20_000) return null;
  try {
    const parsed = annotationSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** A position on an element of the given size as a point of the picture, clamped and rounded. */
export function toPoint(x: number, y: number, width: number, height: number): Point {
  const norm = (v: number, size: number) => (size > 0 ? Math.round(Math.min(1, Math.max(0, v / size)) * 10_000) / 10_000 : 0);
  return [norm(x, width), norm(y, height)];
}

/**
 * The stroke with one more point: an arrow keeps its first and last point; a pen stroke keeps
 * every point until the limit, then every other one (the shape stays, the message stays small).
 */
export function addPoint(stroke: Stroke, p: Point): Stroke {
  if (stroke.tool === 'arrow') return { ...stroke, points: [stroke.points[0]!, p] };
  let points = [...stroke.points, p];
  if (points.length > STROKE_MAX_POINTS) points = points.filter((_, i) => i % 2 === 0 || i === points.length - 1);
  return { ...stroke, points };
}

/** What is on screen after a message: strokes by id (a stroke is resent as it grows), the pointer. */
export interface AnnotationScene {
  strokes: Stroke[];
  pointer: Point | null;
}

export const EMPTY_SCENE: AnnotationScene = { strokes: [], pointer: null };

export function applyAnnotation(scene: AnnotationScene, a: Annotation): AnnotationScene {
  switch (a.kind) {
    case 'clear':
      return { strokes: [], pointer: scene.pointer };
    case 'pointer':
      return { ...scene, pointer: a.at };
    case 'stroke': {
      const others = scene.strokes.filter((s) => s.id !== a.id);
      return { ...scene, strokes: [...others, a] };
    }
  }
}

/** The two short lines of an arrow's head at `to`, as picture points (for a canvas of w x h). */
export function arrowHead(from: Point, to: Point, w: number, h: number, size = 16): [Point, Point] {
  const angle = Math.atan2((to[1] - from[1]) * h, (to[0] - from[0]) * w);
  const wing = (a: number): Point => [to[0] - (size * Math.cos(a)) / Math.max(w, 1), to[1] - (size * Math.sin(a)) / Math.max(h, 1)];
  return [wing(angle - Math.PI / 6), wing(angle + Math.PI / 6)];
}
