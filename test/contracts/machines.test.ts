// The state machines in contracts/machines/*.yaml: well formed, sound as graphs, true to the
// API description, and in step with the OpenAPI contracts (operationIds, webhook event types,
// status enums). Contract-dependent tests fail, not skip, while a contract file is missing.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { apiContracts, contractsDir, loadContract, readYaml, type ContractKey, type Family } from '../support/contracts.js';
import {
  checkDeclarations,
  checkDeterminism,
  checkMachine,
  checkReachability,
  checkReferences,
  checkTermination,
  emittedEventTypes,
  machineSchemas,
  operationIds,
  reachableFrom,
  readMachine,
  webhookEventTypes,
} from './machine-checks.js';
import type { Machine, MachineSchema, StateDef, Transition } from './machine-checks.js';

const MACHINES_DIR: string = join(contractsDir, 'machines');

// ---------------------------------------------------------------------------------------------
// Given: the machines, their families and the status schemas that mirror them.

const MACHINE_NAMES: string[] = [
  'aml-check',
  'deposit',
  'order',
  'review',
  'static-address',
  'upload-intent',
  'verification',
  'webhook-delivery',
  'webhook-endpoint',
];

/** The contract whose webhooks declare a machine's events; null: the machine emits nothing. */
const EVENT_FAMILY: Record<string, Family | null> = {
  order: 'v3',
  'upload-intent': 'v3',
  verification: 'v3',
  deposit: 'v1',
  'aml-check': 'v1',
  'webhook-delivery': null,
  'webhook-endpoint': null,
  'static-address': null,
  review: null,
};

/** (contract, schema, x-machine): the status enums that must equal the machines' state sets. */
const STATUS_SCHEMAS: { contract: Family; schema: string; machine: string }[] = [
  { contract: 'v3', schema: 'OrderStatus', machine: 'order' },
  { contract: 'v3', schema: 'UploadIntentStatus', machine: 'upload-intent' },
  { contract: 'v3', schema: 'VerificationStatus', machine: 'verification' },
  { contract: 'v3', schema: 'DeliveryStatus', machine: 'webhook-delivery' },
  { contract: 'v1', schema: 'DeliveryStatus', machine: 'webhook-delivery' },
  { contract: 'v1', schema: 'DepositStatus', machine: 'deposit' },
  { contract: 'v1', schema: 'AmlCheckStatus', machine: 'aml-check' },
  { contract: 'v3', schema: 'WebhookEndpointStatus', machine: 'webhook-endpoint' },
  { contract: 'v1', schema: 'StaticAddressStatus', machine: 'static-address' },
  { contract: 'v3', schema: 'ReviewStatus', machine: 'review' },
];

/** States the API description names (section 3), per machine. Each must be marked seed: true. */
const DESCRIPTION_STATES: Record<string, string[]> = {
  deposit: ['paid', 'paid_over', 'expired'],
  'webhook-delivery': ['pending', 'delivered', 'failed', 'retrying', 'queued'],
  'aml-check': ['pending', 'skipped'],
  'upload-intent': ['pending'],
  order: ['paid', 'processing', 'completed'],
  verification: [],
  'webhook-endpoint': ['active'],
  'static-address': [],
  review: [],
};

// ---------------------------------------------------------------------------------------------
// Loading.

function loadMachine(name: string): { machine: Machine; problems: string[] } {
  const doc: unknown = readYaml(join(MACHINES_DIR, `${name}.yaml`));
  return readMachine(doc, name);
}

const machineFiles: string[] = readdirSync(MACHINES_DIR)
  .filter((file: string) => file.endsWith('.yaml'))
  .map((file: string) => file.slice(0, -'.yaml'.length))
  .sort();

const machines: Map<string, Machine> = new Map(
  machineFiles.map((name: string) => [name, loadMachine(name).machine] as [string, Machine]),
);

function machineNamed(name: string): Machine {
  const machine: Machine | undefined = machines.get(name);
  if (machine === undefined) throw new Error(`contracts/machines/${name}.yaml is missing`);
  return machine;
}


function transitionsWhere(machine: Machine, match: Partial<Transition>): Transition[] {
  return machine.transitions.filter((t: Transition) =>
    (Object.keys(match) as (keyof Transition)[]).every((key: keyof Transition) => t[key] === match[key]),
  );
}

// ---------------------------------------------------------------------------------------------

describe('contracts/machines', () => {
  it('holds exactly the nine machines', () => {
    expect(machineFiles).toEqual(MACHINE_NAMES);
  });
});

describe.each(machineFiles)('machine %s', (name: string) => {
  const { machine, problems } = loadMachine(name);

  describe('shape', () => {
    it('has the required keys in order, machine equal to the file name, described states and timers', () => {
      expect(problems).toEqual([]);
    });

    it('says what is ours with x-assumption', () => {
      expect(machine.assumptions.length).toBeGreaterThan(0);
    });
  });

  describe('graph', () => {
    it('declares initial, terminal and every transition end as states', () => {
      expect(checkDeclarations(machine)).toEqual([]);
    });

    it('uses valid actors, via exactly for client, declared guards and timers, and every guard and timer', () => {
      expect(checkReferences(machine)).toEqual([]);
    });

    it('reaches every state from initial', () => {
      expect(checkReachability(machine)).toEqual([]);
    });

    it('ends: terminal states have no way out, every other state can reach one', () => {
      expect(checkTermination(machine)).toEqual([]);
    });

    it('is deterministic: no two transitions share (from, event, guard)', () => {
      expect(checkDeterminism(machine)).toEqual([]);
    });
  });

  describe('the API description', () => {
    const named: string[] = DESCRIPTION_STATES[name] ?? [];
    if (named.length === 0) {
      it('names none of its states, so none is marked seed', () => {
        const seeded: string[] = [...machine.states].filter(([, def]: [string, StateDef]) => def.seed).map(([s]) => s);
        expect(seeded).toEqual([]);
      });
    } else {
      it.each(named)('declares the named state %s, marked seed', (state: string) => {
        const def: StateDef | undefined = machine.states.get(state);
        expect(def, `state ${state}`).toBeDefined();
        expect(def?.seed, `state ${state} is marked seed: true`).toBe(true);
      });
    }
  });

  describe('contracts', () => {
    it('names only operationIds that exist in the contracts in via', () => {
      const known: Set<string> = new Set([
        ...operationIds(loadContract('v3')),
        ...operationIds(loadContract('v1')),
      ]);
      const via: string[] = machine.transitions.flatMap((t: Transition) => t.via ?? []);
      expect(via.filter((id: string) => !known.has(id))).toEqual([]);
    });

    it("emits only event types declared in its family's webhooks", () => {
      const emitted: string[] = emittedEventTypes(machine);
      const family: Family | null = EVENT_FAMILY[name] ?? null;
      if (family === null) {
        expect(emitted, `${name} emits no webhook events`).toEqual([]);
        return;
      }
      const declared: Set<string> = webhookEventTypes(loadContract(family));
      expect(emitted.filter((type: string) => !declared.has(type))).toEqual([]);
    });

    it('has its state set mirrored by the x-machine status schemas', () => {
      const expected: { contract: Family; schema: string }[] = STATUS_SCHEMAS.filter(
        (row: { machine: string }) => row.machine === name,
      );
      expect(expected.length, `${name} has a status schema in the table`).toBeGreaterThan(0);
      const states: string[] = [...machine.states.keys()].sort();
      for (const family of ['v3', 'v1'] as Family[]) {
        const contract: Record<string, unknown> = loadContract(family);
        const found: MachineSchema[] = machineSchemas(contract).filter((s: MachineSchema) => s.machine === name);
        // Every schema that claims this machine mirrors it ...
        for (const schema of found) {
          const values: string[] = (schema.enumValues ?? []).map((v: unknown) => String(v));
          expect(new Set(values), `${apiContracts[family]} ${schema.schema} enum`).toEqual(new Set(states));
        }
        // ... and the expected schemas are there and claim it.
        const names: string[] = found.map((s: MachineSchema) => s.schema);
        for (const row of expected.filter((r: { contract: Family }) => r.contract === family)) {
          expect(names, `${apiContracts[family]} components.schemas.${row.schema} with x-machine: ${name}`).toContain(
            row.schema,
          );
        }
      }
    });
  });
});

// Event enums (what a simulation or a control call may fire) are the machines' events, in every contract.
describe('x-machine-events schemas', () => {
  const marked: { contract: ContractKey; schema: MachineSchema }[] = (['v3', 'v1', 'control'] as ContractKey[]).flatMap((contract: ContractKey) =>
    machineSchemas(loadContract(contract), 'x-machine-events').map((schema: MachineSchema) => ({ contract, schema })),
  );

  it('mark the order event enums of v3 and control, and the control events of static addresses and reviews', () => {
    expect(marked.map(({ contract, schema }) => `${contract} ${schema.schema} ${schema.machine}`).sort()).toEqual([
      'control OrderMachineEvent order',
      'control ReviewMachineEvent review',
      'control StaticAddressMachineEvent static-address',
      'v3 OrderMachineEvent order',
    ]);
  });

  it.each(marked.map(({ contract, schema }) => [`${contract} ${schema.schema}`, schema] as const))('%s equals its machine\'s events', (_name: string, schema: MachineSchema) => {
    const events: string[] = [...new Set(machineNamed(schema.machine).transitions.map((t: Transition) => t.event))].sort();
    expect((schema.enumValues ?? []).map(String).sort()).toEqual(events);
  });
});

// The transitions the description names (section 3): given the description, want these.
describe('transitions the API description names', () => {
  it('deposit: expired --refresh (refreshDeposit)--> a revived, non-expired state', () => {
    const deposit: Machine = machineNamed('deposit');
    const revivals: Transition[] = transitionsWhere(deposit, { from: 'expired', event: 'refresh' });
    expect(revivals).toHaveLength(1);
    const [revival] = revivals as [Transition];
    expect(revival.via).toContain('refreshDeposit');
    expect(revival.to).not.toBe('expired');
    expect(revival.seed).toBe(true);
  });

  it('webhook-delivery: failed --retry (retryWebhookDelivery)--> queued', () => {
    const delivery: Machine = machineNamed('webhook-delivery');
    const retries: Transition[] = transitionsWhere(delivery, { from: 'failed', event: 'retry', to: 'queued' });
    expect(retries).toHaveLength(1);
    expect(retries[0]?.via).toContain('retryWebhookDelivery');
    expect(retries[0]?.seed).toBe(true);
  });

  it('aml-check: a pending check is reconciled when it is read', () => {
    const aml: Machine = machineNamed('aml-check');
    const reconciled: Transition[] = transitionsWhere(aml, { from: 'pending' }).filter(
      (t: Transition) => t.note !== null && /reconcil/i.test(t.note) && /\bGET\b|\bread/i.test(t.note),
    );
    expect(reconciled.length).toBeGreaterThan(0);
    expect(reconciled.some((t: Transition) => t.seed)).toBe(true);
  });

  it('aml-check: an unsupported currency gives skipped', () => {
    const aml: Machine = machineNamed('aml-check');
    expect(transitionsWhere(aml, { from: 'pending', to: 'skipped' })).toHaveLength(1);
  });

  it('upload-intent: committed_at and consumed_at have states after pending, consumed last', () => {
    const upload: Machine = machineNamed('upload-intent');
    expect(upload.initial).toBe('pending');
    const commits: Transition[] = transitionsWhere(upload, { from: 'pending', event: 'commit', to: 'committed' });
    expect(commits).toHaveLength(1);
    expect(commits[0]?.via).toContain('commitUploadIntent');
    expect(reachableFrom(upload, 'committed').has('consumed')).toBe(true);
    expect(upload.terminal).toContain('consumed');
    expect(upload.states.get('committed')?.seed).toBe(true);
    expect(upload.states.get('consumed')?.seed).toBe(true);
  });

  it('order: paid is reached from the initial state, then processing, then completed', () => {
    const order: Machine = machineNamed('order');
    expect(reachableFrom(order, order.initial).has('paid')).toBe(true);
    expect(reachableFrom(order, 'paid').has('processing')).toBe(true);
    expect(reachableFrom(order, 'processing').has('completed')).toBe(true);
    expect(order.terminal).toContain('completed');
  });

  it('order: creation emits order.created and every transition emits order.status_changed', () => {
    const order: Machine = machineNamed('order');
    expect(order.createdEmits).toBe('order.created');
    expect(order.transitions.every((t: Transition) => t.emits === 'order.status_changed')).toBe(true);
  });

  it('deposit: the sweep is a side event, not a state', () => {
    const deposit: Machine = machineNamed('deposit');
    expect(deposit.sideEvents.map((e: { type: string }) => e.type)).toEqual(['deposit.swept']);
    expect(deposit.states.has('swept')).toBe(false);
  });
});

// The checks must be able to fail: a small broken machine.
describe('the graph checks catch a broken machine', () => {
  const broken: unknown = {
    machine: 'broken',
    title: 'Broken',
    description: 'stuck can never finish',
    'x-assumption': 'test fixture',
    initial: 'start',
    terminal: ['done'],
    states: {
      start: { description: 'start' },
      stuck: { description: 'loops on itself forever' },
      done: { description: 'done' },
    },
    timers: {},
    guards: {},
    transitions: [
      { from: 'start', event: 'finish', to: 'done', actor: 'system', guard: null, timer: null, emits: null },
      { from: 'start', event: 'jam', to: 'stuck', actor: 'system', guard: null, timer: null, emits: null },
      { from: 'stuck', event: 'spin', to: 'stuck', actor: 'system', guard: null, timer: null, emits: null },
    ],
  };

  it('reads as well formed', () => {
    expect(readMachine(broken, 'broken').problems).toEqual([]);
  });

  it('reports the state with no path to a terminal state', () => {
    const { machine } = readMachine(broken, 'broken');
    expect(checkMachine(machine)).toEqual(['state stuck cannot reach any terminal state']);
  });
});

describe('the checks catch a machine without terminal states that is not a cycle, and a bad limit', () => {
  const broken: unknown = {
    machine: 'broken',
    title: 'Broken',
    description: 'once off, never on again',
    'x-assumption': 'test fixture',
    initial: 'on',
    terminal: [],
    states: { on: { description: 'on' }, off: { description: 'off' } },
    timers: {},
    limits: { strikes: { count: 0 }, unused: { count: 3, 'x-assumption': 'test fixture' } },
    guards: { struck_out: 'strikes failures in a row' },
    transitions: [{ from: 'on', event: 'switch_off', to: 'off', actor: 'system', guard: 'struck_out', timer: null, emits: null }],
  };

  it('reports the limit without a count or x-assumption', () => {
    expect(readMachine(broken, 'broken').problems).toEqual(['limit strikes needs a count, a whole number of at least 1', 'limit strikes has no x-assumption']);
  });

  it('reports the dead end and the limit no guard names', () => {
    const { machine } = readMachine(broken, 'broken');
    expect(checkMachine(machine)).toEqual([
      'limit unused is declared but no guard a transition uses names it',
      'state off cannot reach on (a machine without terminal states must be a cycle)',
    ]);
  });
});
