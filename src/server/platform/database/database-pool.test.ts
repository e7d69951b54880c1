import { describe, expect, it } from 'vitest';
import { databasePoolSize } from './database-pool';

describe('databasePoolSize()', () => {
  it('is the CPUs times two, plus one, when the config says nothing', () => {
    expect(databasePoolSize(undefined, 1)).toBe(3);
    expect(databasePoolSize(undefined, 2)).toBe(5);
    expect(databasePoolSize(undefined, 4)).toBe(9);
  });

  it("is never more than node-postgres's 10 by default: Node counts a big host's CPUs, not a container's quota", () => {
    expect(databasePoolSize(undefined, 16)).toBe(10);
    expect(databasePoolSize(undefined, 64)).toBe(10);
  });

  it('is the configured size when there is one', () => {
    expect(databasePoolSize(10, 2)).toBe(10);
    expect(databasePoolSize(1, 64)).toBe(1);
  });
});
