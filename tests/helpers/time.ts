/**
 * TEST_TIME_SCALE (default 1) stretches every time budget of the suite at once: vitest's test,
 * hook and poll timeouts (vitest.config.ts) and the waits of the helpers that have their own
 * (browser actions, socket acknowledgements, mail arrival). CI raises it; see CONTRIBUTING.md.
 */
export const TIME_SCALE = Math.max(1, Number(process.env.TEST_TIME_SCALE) || 1);

/** A time budget in ms, stretched for a slow or loaded machine. */
export const budget = (ms: number) => Math.round(ms * TIME_SCALE);
