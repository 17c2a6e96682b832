// The admin token a command sends to a running mock's control API (listen, trigger), read from
// its options with where it was given; a refusal is worded by admin-token-refusal.ts.
import { mockClientOptions, type OptionValues } from './options.js';

/** An admin token and where it was given, as a message names it. */
export interface AdminToken {
  value: string;
  from: string;
}

const option = mockClientOptions.find((spec) => spec.name === 'admin-token')!;

/** The admin token among readOptions' values and sources, if one was given. */
export function adminTokenOf(values: OptionValues, sources: Readonly<Record<string, string>>): AdminToken | undefined {
  const value = values[option.name];
  return typeof value === 'string' ? { value, from: sources[option.name] ?? `--${option.name}` } : undefined;
}

/** The ways a command takes the admin token, as a refusal names them. */
export const adminTokenWays = `--${option.name} or ${option.env}`;
