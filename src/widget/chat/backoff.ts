/**
 * How long to wait before retry number `attempt` (0-based): exponential from 500 ms, capped at 30 s, with "equal
 * jitter" (half fixed, half random), so a shop full of widgets coming back after an outage does not retry in step.
 */
export const backoffDelay = (attempt: number, random: () => number = Math.random): number => {
  const ceiling = Math.min(30_000, 500 * 2 ** Math.min(attempt, 6));
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
};
