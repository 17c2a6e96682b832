// One instance of an exchange service per sandbox and per reset: a reset rebuilds the webhook
// engine, so the engine object marks the generation (as depositService does). Each service
// draws from its own Random, seeded from the sandbox seed and a salt, so its stream does not
// depend on what other parts of the mock have drawn.
import { createRandom, type Random } from '../../random.js';
import type { Sandbox } from '../../sandbox.js';

export function perSandbox<T>(salt: number, make: (sandbox: Sandbox, random: Random) => T): (sandbox: Sandbox) => T {
  const instances = new WeakMap<Sandbox, { generation: object; instance: T }>();
  return (sandbox) => {
    const current = instances.get(sandbox);
    if (current !== undefined && current.generation === sandbox.webhooks) return current.instance;
    const instance = make(sandbox, createRandom((sandbox.seedInUse ^ salt) >>> 0));
    instances.set(sandbox, { generation: sandbox.webhooks, instance });
    return instance;
  };
}
