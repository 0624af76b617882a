/**
 * Remote assistance rules without a browser: what the annotation channel accepts, how points are
 * made and strokes grow, what the scene shows, and who a tipo-4 call charges (arTime once).
 */
import { describe, expect, it } from 'vitest';
import { addPoint, applyAnnotation, EMPTY_SCENE, parseAnnotation, STROKE_MAX_POINTS, toPoint, type Stroke } from '../../src/shared/domain/annotations';
import { remoteTag } from '../../src/shared/domain/billing';

describe('annotation messages', () => {
  it('accepts the three kinds and nothing else', () => {
    expect(parseAnnotation(JSON.stringify({ kind: 'pointer', at: [0.5, 0.25] }))).toEqual({ kind: 'pointer', at: [0.5, 0.25] });
    expect(parseAnnotation(JSON.stringify({ kind: 'clear' }))).toEqual({ kind: 'clear' });
    expect(parseAnnotation(JSON.stringify({ kind: 'stroke', id: 'a1', tool: 'pen', points: [[0, 0], [1, 1]] }))).toMatchObject({ kind: 'stroke', id: 'a1' });
    for (const bad of [
      'not json',
      JSON.stringify({ kind: 'pointer', at: [2, 0] }),
      JSON.stringify({ kind: 'stroke', id: '<img>', tool: 'pen', points: [[0, 0]] }),
      JSON.stringify({ kind: 'stroke', id: 'x', tool: 'laser', points: [[0, 0]] }),
      JSON.stringify({ kind: 'stroke', id: 'x', tool: 'pen', points: [] }),
      JSON.stringify({ kind: 'eval', code: 'alert(1)' }),
      new ArrayBuffer(8),
      'x'.repeat(20_001),
    ]) {
      expect(parseAnnotation(bad)).toBeNull();
    }
  });

  it('makes points as fractions of the picture, clamped, 4 decimals', () => {
    expect(toPoint(50, 25, 200, 100)).toEqual([0.25, 0.25]);
    expect(toPoint(-10, 500, 200, 100)).toEqual([0, 1]);
    expect(toPoint(1, 1, 3, 3)).toEqual([0.3333, 0.3333]);
    expect(toPoint(5, 5, 0, 0)).toEqual([0, 0]);
  });

  it('grows a pen stroke up to the limit by thinning it; an arrow keeps its two ends', () => {
    let pen: Stroke = { kind: 'stroke', id: 'p', tool: 'pen', points: [[0, 0]] };
    for (let i = 1; i <= STROKE_MAX_POINTS * 2; i++) pen = addPoint(pen, [i / (STROKE_MAX_POINTS * 2), 0.5]);
    expect(pen.points.length).toBeLessThanOrEqual(STROKE_MAX_POINTS);
    expect(pen.points[0]).toEqual([0, 0]);
    expect(pen.points[pen.points.length - 1]).toEqual([1, 0.5]);
    expect(parseAnnotation(JSON.stringify(pen))).not.toBeNull();
    let arrow: Stroke = { kind: 'stroke', id: 'a', tool: 'arrow', points: [[0.1, 0.1]] };
    arrow = addPoint(addPoint(arrow, [0.2, 0.2]), [0.3, 0.4]);
    expect(arrow.points).toEqual([[0.1, 0.1], [0.3, 0.4]]);
  });

  it('keeps one copy of a stroke that is resent as it grows; clear removes the strokes', () => {
    const s1: Stroke = { kind: 'stroke', id: 's', tool: 'pen', points: [[0, 0]] };
    let scene = applyAnnotation(EMPTY_SCENE, s1);
    scene = applyAnnotation(scene, { ...s1, points: [[0, 0], [0.5, 0.5]] });
    scene = applyAnnotation(scene, { kind: 'pointer', at: [0.1, 0.2] });
    expect(scene.strokes).toHaveLength(1);
    expect(scene.strokes[0]!.points).toHaveLength(2);
    expect(scene.pointer).toEqual([0.1, 0.2]);
    expect(applyAnnotation(scene, { kind: 'clear' }).strokes).toEqual([]);
  });
});

describe('arTime', () => {
  it('charges a tipo-4 call on its owner only; other call types are charged as before', () => {
    expect(remoteTag({ type: 4, ownerId: 'a' }, 'a')).toBe('remote');
    expect(remoteTag({ type: 4, ownerId: 'a' }, 'b')).toBe('free');
    expect(remoteTag({ type: 2, ownerId: 'a' }, 'a')).toBeNull();
  });
});
