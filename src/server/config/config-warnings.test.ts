import { describe, expect, it } from 'vitest';
import { configWarnings } from './config-warnings';
import { parseConfig } from './service-config';

const config = (extra: Record<string, unknown>) => {
  const parsed = parseConfig({
    adminKey: 'admin-key-secret-123456',
    widgets: [{ id: 'shop', allowedOrigins: ['*'], productDataApiKeys: ['push-key-secret-1'] }],
    ...extra,
  });
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.value;
};

describe('configWarnings()', () => {
  it('warns about allowHttpLoopback and names each plain-text key by its path, never by its value', () => {
    const warnings = configWarnings(
      config({ allowHttpLoopback: true, taskApiKeys: [{ user: 'a', key: 'nsk_task_key_secret_0001' }] }),
    );
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(/^allowHttpLoopback is on/);
    expect(warnings[1]).toContain('adminKey, taskApiKeys[0].key, widgets[0].productDataApiKeys[0]');
    for (const secret of ['admin-key-secret-123456', 'nsk_task_key_secret_0001', 'push-key-secret-1']) {
      expect(warnings.join('\n')).not.toContain(secret);
    }
  });

  it('says nothing of allowHttpLoopback when it is off', () => {
    expect(configWarnings(config({})).some((w) => w.includes('allowHttpLoopback'))).toBe(false);
  });
});

describe('configWarnings() with every key from the environment', () => {
  it('warns of no plain-text key when the admin key comes from adminKeyEnv and there are no others', () => {
    const parsed = parseConfig({
      adminKeyEnv: 'ADMIN_KEY',
      widgets: [{ id: 'shop', allowedOrigins: ['*'] }],
    });
    if (!parsed.ok) throw new Error(parsed.error);
    expect(configWarnings(parsed.value)).toEqual([]);
  });
});
