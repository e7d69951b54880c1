import { err, ok, type Result } from '../../protocol/result';
import type { WidgetSettings } from '../config/service-config';

// Widget config `signingSecretEnv: "NAME"` (DESIGN "Signed outbound calls"): the secret is read from the environment
// once, at start. A named variable that is unset or empty stops the start with one line naming it, so a store never
// runs believing its calls are signed when they are not. Only the variable's name ever appears in a message.

/**
 * Each widget's signing secret, by widget id; widgets without `signingSecretEnv` are absent (their calls carry the
 * request id only).
 *
 * @example
 * const secrets = readSigningSecrets(config.widgets);
 * if (!secrets.ok) throw new Error(secrets.error); // 'widgets[0].signingSecretEnv: the environment variable …'
 * secrets.value.get('demo'); // → the secret, or undefined
 */
export function readSigningSecrets(
  widgets: readonly Pick<WidgetSettings, 'id' | 'signingSecretEnv'>[],
  env: NodeJS.ProcessEnv = process.env,
): Result<ReadonlyMap<string, string>, string> {
  const secrets = new Map<string, string>();
  for (const [i, widget] of widgets.entries()) {
    const name = widget.signingSecretEnv;
    if (name === undefined) continue;
    const secret = env[name];
    if (secret === undefined)
      return err(`widgets[${i}].signingSecretEnv: the environment variable ${name} is not set`);
    // The value is used as it is (an integrator verifies with the same bytes); only a blank one is refused.
    if (secret.trim() === '')
      return err(`widgets[${i}].signingSecretEnv: the environment variable ${name} is empty`);
    secrets.set(widget.id, secret);
  }
  return ok(secrets);
}
