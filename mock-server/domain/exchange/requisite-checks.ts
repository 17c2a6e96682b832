// The requisites of an order checked against its route: the fields the route needs
// (capabilities' requisites), no others, and each in the format of its side: a payout address
// of the receive network (shapes of docs/domain-notes.md), the memo of memo networks, card numbers with
// a valid Luhn check digit, accounts in the payment system's format.
import type { OrderRequisites } from '../../../generated/exchange-v3/types.js';
import { maxDestinationTag, maxStellarMemoLength, maxTonCommentLength } from '../deposits/chain-data.js';
import { requireNetwork, type MemoName, type NetworkCode } from '../deposits/networks.js';
import type { RouteRecord } from './catalog/catalog-records.js';
import type { PaymentSystemSpec } from './catalog/payment-system-data.js';
import { giveRequisites, receiveRequisites, type RequisiteField } from './catalog/requisite-fields.js';

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

/** A memo's rule per kind of memo (networks.ts memoName). */
const memoRules: Record<MemoName, (memo: string) => string | null> = {
  destination_tag: (memo) => (/^\d{1,10}$/.test(memo) && Number(memo) <= maxDestinationTag ? null : `must be a destination tag from 0 to ${maxDestinationTag}`),
  memo: (memo) => (Buffer.byteLength(memo, 'utf8') <= maxStellarMemoLength ? null : `must be at most ${maxStellarMemoLength} bytes`),
  comment: (memo) => (Buffer.byteLength(memo, 'utf8') <= maxTonCommentLength ? null : `must be at most ${maxTonCommentLength} bytes`),
};

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

/** Field (`body.requisites.<name>`) → messages; empty when the requisites fit the route. */
export function requisiteErrors(route: RouteRecord, requisites: OrderRequisites): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const fail = (field: RequisiteField, message: string) => {
    (errors[`body.requisites.${field}`] ??= []).push(message);
  };
  const needed = new Set([...giveRequisites(route.from.spec), ...receiveRequisites(route.to.spec)]);
  for (const field of needed) {
    const value = requisites[field];
    if (value === undefined || value === null || value === '') fail(field, `is required on route ${route.id} (${route.name})`);
  }
  for (const field of Object.keys(requisites) as RequisiteField[]) {
    if (!needed.has(field)) fail(field, `is not used on route ${route.id}; it needs ${[...needed].join(', ') || 'no requisites'}`);
  }
  const check = (field: RequisiteField, message: string | null) => {
    if (message !== null && needed.has(field) && typeof requisites[field] === 'string' && requisites[field] !== '') fail(field, message);
  };
  const to = route.to.spec;
  if (to.network !== null) {
    const network = requireNetwork(to.network);
    check('to_address', addressPatterns[network.code].test(requisites.to_address ?? '') ? null : `is not a ${network.name} address`);
    if (network.memoName !== null) check('to_memo', memoRules[network.memoName](requisites.to_memo ?? ''));
  }
  check('to_card_number', cardMessage(requisites.to_card_number));
  check('from_card_number', cardMessage(requisites.from_card_number));
  check('to_account', accountMessage(to, requisites.to_account));
  check('from_account', accountMessage(route.from.spec, requisites.from_account));
  return errors;
}

function cardMessage(number: string | undefined): string | null {
  return number === undefined || passesLuhn(number) ? null : 'is not a valid card number (Luhn check failed)';
}

function accountMessage(spec: PaymentSystemSpec, account: string | undefined): string | null {
  if (account === undefined || spec.account === undefined) return null;
  return spec.account.pattern.test(account) ? null : `must be ${spec.account.format}`;
}
