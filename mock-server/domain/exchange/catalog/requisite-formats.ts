// The format of each requisite field on a route, in one place for the check and for its
// description: preflight and order creation check values with `problem` (requisite-checks.ts),
// and route capabilities publish `schema` (`requisites.schema`), so a client can fill in values
// that pass: a payout address of the receive network (shapes of docs/domain-notes.md), the memo of memo
// networks, card numbers with a valid Luhn check digit, accounts in the payment system's format.
// Each field's schema starts from the contract's OrderRequisites property and adds what the
// route decides (pattern, description, an example that passes every check).
import { bundledDocument } from '../../../bundled-contracts.js';
import { createRandom } from '../../../random.js';
import { createChainData, maxDestinationTag, maxStellarMemoLength, maxTonCommentLength } from '../../deposits/chain-data.js';
import { requireNetwork, type MemoName, type NetworkCode, type NetworkDefinition } from '../../deposits/networks.js';
import type { RouteRecord } from './catalog-records.js';
import type { PaymentSystemSpec } from './payment-system-data.js';
import type { RequisiteField } from './requisite-fields.js';

/** A JSON Schema of one requisite field, as capabilities publish it. */
export interface RequisiteFieldSchema {
  type: 'string';
  description: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  examples: string[];
}

export interface RequisiteFormat {
  schema: RequisiteFieldSchema;
  /** Why the value does not fit; null when it does. */
  problem(value: string): string | null;
}

/** Address shapes per network (docs/domain-notes.md, "Address and hash shapes"). */
const addressPatterns: Record<NetworkCode, RegExp> = {
  BTC: /^(bc1q[0-9a-z]{38}|bc1p[0-9a-z]{58}|[13][a-km-zA-HJ-NP-Z1-9]{25,34})$/,
  ETH: /^0x[0-9a-fA-F]{40}$/,
  BSC: /^0x[0-9a-fA-F]{40}$/,
  POLYGON: /^0x[0-9a-fA-F]{40}$/,
  TRON: /^T[1-9A-HJ-NP-Za-km-z]{33}$/,
  LTC: /^(ltc1[0-9a-z]{39}|[LM][a-km-zA-HJ-NP-Z1-9]{33})$/,
  DOGE: /^D[1-9A-HJ-NP-Za-km-z]{25,34}$/,
  SOLANA: /^[1-9A-HJ-NP-Za-km-z]{32,44}$/,
  TON: /^(EQ|UQ)[A-Za-z0-9_-]{46}$/,
  XRP: /^r[1-9A-HJ-NP-Za-km-z]{24,34}$/,
  XLM: /^G[A-D][A-Z2-7]{54}$/,
};

/** Each kind of memo (networks.ts memoName): its rule and how it is described. */
const memoFormats: Record<MemoName, { schema: Pick<RequisiteFieldSchema, 'pattern' | 'maxLength'>; describe: string; problem(memo: string): string | null }> = {
  destination_tag: {
    schema: { pattern: '^\\d{1,10}$' },
    describe: `a destination tag from 0 to ${maxDestinationTag}`,
    problem: (memo) => (/^\d{1,10}$/.test(memo) && Number(memo) <= maxDestinationTag ? null : `must be a destination tag from 0 to ${maxDestinationTag}`),
  },
  memo: {
    schema: { maxLength: maxStellarMemoLength },
    describe: `a text memo of at most ${maxStellarMemoLength} bytes`,
    problem: (memo) => (Buffer.byteLength(memo, 'utf8') <= maxStellarMemoLength ? null : `must be at most ${maxStellarMemoLength} bytes`),
  },
  comment: {
    schema: { maxLength: maxTonCommentLength },
    describe: `a text comment of at most ${maxTonCommentLength} bytes`,
    problem: (memo) => (Buffer.byteLength(memo, 'utf8') <= maxTonCommentLength ? null : `must be at most ${maxTonCommentLength} bytes`),
  },
};

/** A well-known test card number (Visa), valid for the Luhn check. */
const exampleCard = '4111111111111111';
const exampleHolder = 'ALICE SMITH';

/** The Luhn check (ISO/IEC 7812) every payment card number passes. */
export function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** What a route decides about a field, on top of the contract's property. */
interface FieldRule {
  schema: Partial<RequisiteFieldSchema> & Pick<RequisiteFieldSchema, 'description' | 'examples'>;
  problem(value: string): string | null;
}

export function requisiteFormat(field: RequisiteField, route: RouteRecord): RequisiteFormat {
  const rule = fieldRule(field, route);
  return { schema: { ...contractBounds(field), ...rule.schema }, problem: rule.problem };
}

function fieldRule(field: RequisiteField, route: RouteRecord): FieldRule {
  switch (field) {
    case 'to_address':
      return addressRule(networkOf(route.to.spec));
    case 'to_memo':
      return memoRule(networkOf(route.to.spec));
    case 'to_card_number':
    case 'from_card_number':
      return {
        schema: { description: 'A payment card number that passes the Luhn check.', examples: [exampleCard] },
        problem: (value) => (passesLuhn(value) ? null : 'is not a valid card number (Luhn check failed)'),
      };
    case 'to_account':
      return accountRule(route.to.spec);
    case 'from_account':
      return accountRule(route.from.spec);
    case 'holder_name':
      return { schema: { description: 'The card or account holder’s name, as on the card or account.', examples: [exampleHolder] }, problem: () => null };
  }
}

function addressRule(network: NetworkDefinition): FieldRule {
  const pattern = addressPatterns[network.code as NetworkCode];
  return {
    schema: { description: `A ${network.name} address.`, pattern: pattern.source, examples: [chainExample(network).address] },
    problem: (value) => (pattern.test(value) ? null : `is not a ${network.name} address`),
  };
}

function memoRule(network: NetworkDefinition): FieldRule {
  const memo = chainExample(network).memo;
  if (network.memoName === null || memo === null) throw new Error(`${network.code} takes no memo`);
  const format = memoFormats[network.memoName];
  return {
    schema: { ...format.schema, description: `The ${network.name} ${network.memoName.replace('_', ' ')}: ${format.describe}.`, examples: [memo] },
    problem: format.problem,
  };
}

function accountRule(spec: PaymentSystemSpec): FieldRule {
  const account = spec.account;
  if (account === undefined) throw new Error(`${spec.letter} has no account format`);
  return {
    schema: { description: `The ${spec.name} account: ${account.format}.`, pattern: account.pattern.source, examples: [account.example] },
    problem: (value) => (account.pattern.test(value) ? null : `must be ${account.format}`),
  };
}

function networkOf(spec: PaymentSystemSpec): NetworkDefinition {
  if (spec.network === null) throw new Error(`${spec.letter} has no network`);
  return requireNetwork(spec.network);
}

// Example addresses and memos come from the chain simulator's own generator (the shapes every
// deposit address has), drawn once per network from a fixed seed: the same on every sandbox.
const exampleSeed = 20_260_101;
const chainExamples = new Map<string, { address: string; memo: string | null }>();
function chainExample(network: NetworkDefinition): { address: string; memo: string | null } {
  let example = chainExamples.get(network.code);
  if (example === undefined) {
    const chain = createChainData(createRandom(exampleSeed));
    example = { address: chain.address(network.code as NetworkCode), memo: chain.memo(network.code as NetworkCode, 'ex') };
    chainExamples.set(network.code, example);
  }
  return example;
}

type Bounds = Pick<RequisiteFieldSchema, 'type' | 'pattern' | 'minLength' | 'maxLength'>;
let contractProperties: Record<string, { pattern?: string; minLength?: number; maxLength?: number }> | undefined;
/** The bounds the contract's OrderRequisites gives the field (its generic description aside). */
function contractBounds(field: RequisiteField): Bounds {
  contractProperties ??= (bundledDocument('exchange-v3').components as { schemas: Record<string, { properties: NonNullable<typeof contractProperties> }> }).schemas.OrderRequisites!.properties;
  const property = contractProperties[field] ?? {};
  return {
    type: 'string',
    ...(property.pattern !== undefined ? { pattern: property.pattern } : {}),
    ...(property.minLength !== undefined ? { minLength: property.minLength } : {}),
    ...(property.maxLength !== undefined ? { maxLength: property.maxLength } : {}),
  };
}
