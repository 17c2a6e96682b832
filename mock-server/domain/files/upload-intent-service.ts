// The upload intents of one sandbox: create, read, commit a file, consume it for a verification,
// and expiry on the virtual clock, with every status change taken from the upload-intent machine
// (generated/machines.ts, contracts/machines/upload-intent.yaml). Only the file's name, size,
// detected type and digest are kept, never its bytes, so memory stays bounded.
import type { UploadIntent, UploadPurpose } from '../../../generated/exchange-v3/types.js';
import { uploadIntentMachine, type UploadIntentEvent, type UploadIntentState } from '../../../generated/machines.js';
import type { SandboxStateUploadIntent } from '../../../generated/sandbox-control/types.js';
import type { Clock } from '../../clock.js';
import { createRandom, type Random } from '../../random.js';
import { allowedEvents, tryFire } from '../machines/fire.js';
import { requireOneOf, StateRejected } from '../state-rejected.js';
import { randomUuid } from '../webhooks/ids.js';
import { detectContentType, fileProblems, type ReceivedFile } from './file-content.js';
import { uploadLimits } from './upload-limits.js';
import type { RecordMarks } from '../record-marks.js';

export interface StoredFile {
  name: string;
  size: number;
  contentType: string;
  sha256: string;
}

export interface UploadIntentRecord {
  id: number;
  uuid: string;
  clientId: string;
  purpose: UploadPurpose;
  resourceType: string | null;
  resourceId: string | null;
  fieldKey: string | null;
  status: UploadIntentState;
  allowedExtensions: string[];
  maxBytes: number;
  file: StoredFile | null;
  expiresAt: Date;
  committedAt: Date | null;
  consumedAt: Date | null;
}

export interface CreateUploadIntentInput {
  purpose: UploadPurpose;
  resourceType: string | null;
  resourceId: string | null;
  fieldKey: string | null;
  allowedExtensions: string[] | null;
  maxBytes: number | null;
}

// Keyed by the generated type, so the compiler keeps the list and the v3 contract in step.
const purposeSet: Readonly<Record<UploadPurpose, true>> = { identity_verification: true, card_verification: true };
const purposes = Object.keys(purposeSet) as UploadPurpose[];

export type CommitOutcome =
  | { ok: true }
  /** The intent's status does not allow a commit: the machine's reason (409). */
  | { ok: false; refused: 'state'; reason: string }
  /** The file does not fit the intent's limits (422); the intent stays pending. */
  | { ok: false; refused: 'file'; problems: string[] };

export class UploadIntentService {
  private readonly intents = new Map<string, UploadIntentRecord>();
  private nextId = 1;

  constructor(
    private readonly clock: Clock,
    /** The intents' uuids: a stream of their own (a snapshot's load resumes it). */
    private random: Random,
    private readonly marks: RecordMarks,
  ) {}

  create(clientId: string, input: CreateUploadIntentInput): UploadIntentRecord {
    const limits = uploadLimits();
    const now = this.clock.now();
    const intent: UploadIntentRecord = {
      id: this.nextId++,
      uuid: randomUuid(this.random),
      clientId,
      purpose: input.purpose,
      resourceType: input.resourceType,
      resourceId: input.resourceId,
      fieldKey: input.fieldKey,
      status: uploadIntentMachine.initial,
      allowedExtensions: input.allowedExtensions ?? [...limits.defaultExtensions],
      maxBytes: input.maxBytes ?? limits.defaultMaxBytes,
      file: null,
      expiresAt: new Date(now.getTime() + limits.ttlSeconds * 1000),
      committedAt: null,
      consumedAt: null,
    };
    this.intents.set(intent.uuid, intent);
    this.marks.changed('upload', intent.uuid);
    return intent;
  }

  /** The client's intent, brought up to date; undefined for an unknown one or another client's. */
  get(clientId: string, uuid: string): UploadIntentRecord | undefined {
    const intent = this.intents.get(uuid);
    if (intent === undefined || intent.clientId !== clientId) return undefined;
    this.settle(intent);
    return intent;
  }

  /** The client of any intent, undefined for an unknown uuid (a restored verification's documents). */
  clientOf(uuid: string): string | undefined {
    return this.intents.get(uuid)?.clientId;
  }

  /** Every intent in creation order, as stored (not brought up to date), and the stream's position (snapshots). */
  /** `withRecords` false: the intents left out (a journal's header). */
  exportState(withRecords = true): { intents: SandboxStateUploadIntent[]; random: number } {
    return { intents: withRecords ? [...this.intents.values()].map(intentState) : [], random: this.random.state() };
  }

  /** One intent as exportState lists it (as stored); undefined when there is none. */
  exportRecord(uuid: string): SandboxStateUploadIntent | undefined {
    const intent = this.intents.get(uuid);
    return intent === undefined ? undefined : intentState(intent);
  }

  /**
   * Replaces the intents with a snapshot's (at `pointer`), each client checked by `requireClient`,
   * continues the ids after the highest and resumes the stream at `randomAt`. Throws StateRejected.
   */
  restoreState(
    state: { intents: readonly SandboxStateUploadIntent[]; randomAt: number },
    requireClient: (clientId: string, pointer: string) => void,
    pointer: string,
  ): void {
    this.intents.clear();
    const ids = new Set<number>();
    let highest = 0;
    state.intents.forEach(({ expiresAtMs, committedAtMs, consumedAtMs, ...rest }, index) => {
      const at = `${pointer}/${index}`;
      if (this.intents.has(rest.uuid)) throw new StateRejected(`${at}/uuid`, 'another upload intent has this uuid');
      if (ids.has(rest.id)) throw new StateRejected(`${at}/id`, 'another upload intent has this id');
      requireClient(rest.clientId, `${at}/clientId`);
      ids.add(rest.id);
      highest = Math.max(highest, rest.id);
      this.intents.set(rest.uuid, {
        ...rest,
        purpose: requireOneOf(rest.purpose, purposes, `${at}/purpose`),
        status: requireOneOf(rest.status, uploadIntentMachine.states, `${at}/status`),
        expiresAt: new Date(expiresAtMs),
        committedAt: committedAtMs === null ? null : new Date(committedAtMs),
        consumedAt: consumedAtMs === null ? null : new Date(consumedAtMs),
      });
    });
    this.nextId = highest + 1;
    this.random = createRandom(this.random.seed, state.randomAt);
  }

  /** Every client's intents, brought up to date, newest first (the inspector). */
  all(): UploadIntentRecord[] {
    const intents = [...this.intents.values()].sort((a, b) => b.id - a.id);
    for (const intent of intents) this.settle(intent);
    return intents;
  }

  commit(intent: UploadIntentRecord, file: ReceivedFile): CommitOutcome {
    this.settle(intent);
    if (!allowedEvents(uploadIntentMachine, intent.status, { ignoreGuards: true }).includes('commit')) {
      return { ok: false, refused: 'state', reason: this.refusal(intent, 'commit') };
    }
    const problems = fileProblems(file, { allowedExtensions: intent.allowedExtensions, maxBytes: intent.maxBytes });
    const fired = tryFire(uploadIntentMachine, intent.status, 'commit', { guards: { file_accepted: problems.length === 0 } });
    if (!fired.ok) return { ok: false, refused: 'file', problems };
    intent.status = fired.transition.to;
    intent.committedAt = this.clock.now();
    intent.file = { name: file.name, size: file.size, contentType: detectContentType(file.head), sha256: file.sha256 };
    this.marks.changed('upload', intent.uuid);
    return { ok: true };
  }

  /** Why the intent cannot be used by a verification now; null when it can (it is committed). */
  unusable(intent: UploadIntentRecord): string | null {
    this.settle(intent);
    return tryFire(uploadIntentMachine, intent.status, 'consume').ok ? null : this.refusal(intent, 'consume');
  }

  /** A verification used the file. Call only after unusable() said null. */
  consume(intent: UploadIntentRecord): void {
    const fired = tryFire(uploadIntentMachine, intent.status, 'consume');
    if (!fired.ok) throw new Error(`upload intent ${intent.uuid}: ${fired.reason}`);
    intent.status = fired.transition.to;
    intent.consumedAt = this.clock.now();
    this.marks.changed('upload', intent.uuid);
  }

  view(intent: UploadIntentRecord): UploadIntent {
    this.settle(intent);
    const file = intent.file;
    return {
      id: intent.id,
      uuid: intent.uuid,
      purpose: intent.purpose,
      resource_type: intent.resourceType,
      resource_id: intent.resourceId,
      field_key: intent.fieldKey,
      status: intent.status,
      allowed_extensions: intent.allowedExtensions,
      max_bytes: intent.maxBytes,
      file: file === null ? null : { name: file.name, size: file.size, content_type: file.contentType, sha256: file.sha256 },
      expires_at: intent.expiresAt.toISOString(),
      committed_at: intent.committedAt?.toISOString() ?? null,
      consumed_at: intent.consumedAt?.toISOString() ?? null,
    };
  }

  /** The machine's refusal in words a client reads: what the intent's status is and why not. */
  private refusal(intent: UploadIntentRecord, event: UploadIntentEvent): string {
    const fired = tryFire(uploadIntentMachine, intent.status, event, { ignoreGuards: true });
    return fired.ok ? `the upload intent is ${intent.status}` : `the upload intent is ${intent.status}: ${fired.reason}`;
  }

  /** Expiry falls due at expires_at; applied whenever the intent is next looked at. */
  private settle(intent: UploadIntentRecord): void {
    if (this.clock.now().getTime() < intent.expiresAt.getTime()) return;
    const fired = tryFire(uploadIntentMachine, intent.status, 'expire');
    if (fired.ok) {
      intent.status = fired.transition.to;
      this.marks.changed('upload', intent.uuid);
    }
  }
}

function intentState({ allowedExtensions, file, expiresAt, committedAt, consumedAt, ...rest }: UploadIntentRecord): SandboxStateUploadIntent {
  return {
    ...rest,
    allowedExtensions: [...allowedExtensions],
    file: file === null ? null : { ...file },
    expiresAtMs: expiresAt.getTime(),
    committedAtMs: committedAt?.getTime() ?? null,
    consumedAtMs: consumedAt?.getTime() ?? null,
  };
}
