// The platform's self-description, read from contracts/: the contracts catalog
// (platform-contracts.yaml), the JSON Schema catalog (schemas/*.json, keyed by file name) and
// the order-status dictionary (the order machine).
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseYaml } from '../../yaml.js';
import type { Contract, OrderStatusDictionaryItem } from '../../../generated/exchange-v3/types.js';
import { orderMachine } from '../../../generated/machines.js';

export interface SchemaEntry {
  key: string;
  title: string;
  version: string;
  contract: string;
  schema: Record<string, unknown>;
}

export interface PlatformCatalog {
  contracts: Contract[];
  schemas: SchemaEntry[];
}

/** Read on first use (the contracts catalog is YAML: parsing it is kept out of the server's start). */
export function loadPlatformCatalog(contractsDir: string): PlatformCatalog {
  let read: PlatformCatalog | undefined;
  const catalog = () => (read ??= readPlatformCatalog(contractsDir));
  return {
    get contracts() {
      return catalog().contracts;
    },
    get schemas() {
      return catalog().schemas;
    },
  };
}

function readPlatformCatalog(contractsDir: string): PlatformCatalog {
  const { contracts } = parseYaml(readFileSync(join(contractsDir, 'platform-contracts.yaml'), 'utf8')) as { contracts: Contract[] };
  const schemas = readdirSync(join(contractsDir, 'schemas'))
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => {
      const key = file.replace(/\.json$/, '');
      const schema = JSON.parse(readFileSync(join(contractsDir, 'schemas', file), 'utf8')) as Record<string, unknown>;
      return {
        key,
        title: String(schema.title ?? key),
        version: key.slice(key.lastIndexOf('.') + 1),
        contract: contracts.find((c) => c.schemas.includes(key))?.key ?? '',
        schema,
      };
    });
  return { contracts, schemas };
}

/** The order-status dictionary, from the order machine: final means terminal. */
export function orderStatuses(): OrderStatusDictionaryItem[] {
  return orderMachine.states.map((code) => ({
    code,
    title: code.split('_').map((w, i) => (i === 0 ? w.charAt(0).toUpperCase() + w.slice(1) : w)).join(' '),
    description: orderMachine.descriptions[code],
    is_final: orderMachine.terminal.includes(code),
  }));
}
