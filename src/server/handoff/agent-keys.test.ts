import { describe, expect, it } from 'vitest';
import { keyDigest, readAgentKeys } from './agent-keys';

const anna = { id: 'anna', name: 'Anna', role: 'agent' as const, keyEnv: 'ANNA_KEY' };

describe('readAgentKeys()', () => {
  it('reads the admin key from adminKeyEnv, first in the list, kept as a digest only', () => {
    const env = { SERVICE_ADMIN_KEY: 'admin-key-from-env-1234', ANNA_KEY: 'anna-key-from-env-5678' };
    const keys = readAgentKeys({ adminKeyEnv: 'SERVICE_ADMIN_KEY' }, [anna], env);
    if (!keys.ok) throw new Error(keys.error);
    expect(keys.value.map((k) => k.identity.id)).toEqual(['admin', 'anna']);
    expect(keys.value[0].digest.equals(keyDigest('admin-key-from-env-1234'))).toBe(true);
    expect(JSON.stringify(keys.value)).not.toContain('admin-key-from-env-1234');
  });

  it('stops on an adminKeyEnv that is unset, blank or short, naming the variable and never the value', () => {
    const run = (value: string | undefined) =>
      readAgentKeys({ adminKeyEnv: 'SERVICE_ADMIN_KEY' }, [], { SERVICE_ADMIN_KEY: value });
    expect(run(undefined)).toEqual({
      ok: false,
      error: 'adminKeyEnv: the environment variable SERVICE_ADMIN_KEY is not set',
    });
    for (const value of ['', '   ', 'short-key'])
      expect(run(value)).toEqual({
        ok: false,
        error:
          'adminKeyEnv: the environment variable SERVICE_ADMIN_KEY must hold a key of at least 12 characters',
      });
  });

  it("refuses an agent key that is the admin key's", () => {
    const keys = readAgentKeys({ adminKeyEnv: 'A' }, [anna], {
      A: 'same-key-123456',
      ANNA_KEY: 'same-key-123456',
    });
    expect(keys).toEqual({ ok: false, error: 'agents[0]: the same key as the admin key' });
  });
});
