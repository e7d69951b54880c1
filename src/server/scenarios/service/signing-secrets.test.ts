// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../config/service-config';
import { readSigningSecrets } from '../../platform/signing-secrets';
import { startService } from '../../start';

describe('readSigningSecrets()', () => {
  const widgets = [
    { id: 'a', signingSecretEnv: 'A_SECRET' },
    { id: 'b' },
    { id: 'c', signingSecretEnv: 'C_SECRET' },
  ];

  it('reads each named variable once, as it is, and leaves widgets without one out', () => {
    const secrets = readSigningSecrets(widgets, { A_SECRET: ' whsec a ', C_SECRET: 'whsec_c' });
    expect(secrets.ok && [...secrets.value]).toEqual([
      ['a', ' whsec a '],
      ['c', 'whsec_c'],
    ]);
  });

  it('names the field and the variable when it is unset or blank, never a value', () => {
    expect(readSigningSecrets(widgets, { A_SECRET: 'x' })).toEqual({
      ok: false,
      error: 'widgets[2].signingSecretEnv: the environment variable C_SECRET is not set',
    });
    expect(readSigningSecrets(widgets, { A_SECRET: ' \n', C_SECRET: 'whsec_c' })).toEqual({
      ok: false,
      error: 'widgets[0].signingSecretEnv: the environment variable A_SECRET is empty',
    });
  });
});

describe('signingSecretEnv in the config', () => {
  it('must name an environment variable', () => {
    const config = (signingSecretEnv: string) =>
      parseConfig({
        adminKey: 'admin-key-123456',
        widgets: [{ id: 'w', allowedOrigins: ['*'], signingSecretEnv }],
      });
    expect(config('SHOP_SIGNING_SECRET').ok).toBe(true);
    expect(config('whsec_abc=def')).toEqual({
      ok: false,
      error: 'widgets[0].signingSecretEnv: must be the name of an environment variable (letters, digits, _)',
    });
  });

  it('stops the start with one line naming the unset variable', async () => {
    const parsed = parseConfig({
      adminKey: 'admin-key-123456',
      widgets: [{ id: 'w', allowedOrigins: ['*'], signingSecretEnv: 'SIGNING_SECRET_NOBODY_SET' }],
    });
    if (!parsed.ok) throw new Error(parsed.error);
    await expect(startService({ config: parsed.value, port: 0 })).rejects.toThrow(
      /^widgets\[0\]\.signingSecretEnv: the environment variable SIGNING_SECRET_NOBODY_SET is not set$/,
    );
  });
});
