// The identity and card verifications of one sandbox: created from committed upload intents
// (which they consume), documents attached by upload, submitted for an order (a verification of
// no order is submitted by the upload that completes its documents), reviewed by the control API
// (approved, rejected, or sent back for more documents), expired on the virtual clock. Every status change is taken from the verification
// machine (generated/machines.ts, contracts/machines/verification.yaml) and reported to the
// linked order (order-link.ts), which an approval releases from verification_hold.
import type { DocumentKind, VerificationType } from '../../../generated/exchange-v3/types.js';
import { verificationMachine, type VerificationEvent } from '../../../generated/machines.js';
import type { SandboxStateVerification } from '../../../generated/sandbox-control/types.js';
import type { Clock } from '../../clock.js';
import { createRandom, type Random } from '../../random.js';
import { DueQueue } from '../../store/due-queue.js';
import type { UploadIntentRecord, UploadIntentService } from '../files/upload-intent-service.js';
import { tryFire } from '../machines/fire.js';
import { requireOneOf, StateRejected } from '../state-rejected.js';
import { randomUuid } from '../webhooks/ids.js';
import { acceptedKinds, purposeOf, verificationTypes } from './document-requirements.js';
import { otherCardProblem } from './order-card.js';
import { reportToOrder, type OrdersAwaitingVerification } from './order-link.js';
import type { RecordMarks } from '../record-marks.js';
import { approvedState, cardDigest, guardsOf, missingOf, refusal, waitsForDocuments, waitsForDocumentsIn, type VerificationRecord } from './verification-records.js';

/** How long a verification waits for its documents (the machine's ttl timer). */
const ttlSeconds: number = (() => {
  const seconds = verificationMachine.timers.ttl?.seconds;
  if (seconds === undefined) throw new Error('the verification machine lacks its ttl timer');
  return seconds;
})();

/** Field path (as error.details names it) → messages. */
export type Details = Record<string, string[]>;

export interface DocumentInput {
  uploadIntent: string;
  kind: DocumentKind;
  /** Where the document sits in the request body, for error details (`body.documents.0`). */
  field: string;
}

export interface CreateInput {
  type: VerificationType;
  documents: DocumentInput[];
  card: { number: string; holderName: string } | null;
  orderId: number | null;
}

export type Created = { ok: true; verification: VerificationRecord } | { ok: false; details: Details };

export type Refusable<T> =
  | { ok: true; value: T }
  /** 422 (the request names something wrong) or 409 (a status does not allow it). */
  | { ok: false; refused: 'validation' | 'state'; details: Details };

export class VerificationService {
  private readonly verifications = new Map<string, VerificationRecord>();
  /** Creation order, for settling verifications that expire in one tick in the order a scan would. */
  private readonly sequence = new WeakMap<VerificationRecord, number>();
  /** Verifications by the end of their ttl, while the machine lets them expire. */
  private readonly timers = new DueQueue<VerificationRecord>({
    dueAt: (v) => (tryFire(verificationMachine, v.status, 'expire').ok ? v.expiresAt.getTime() : null),
    creationOrder: (a, b) => this.sequence.get(a)! - this.sequence.get(b)!,
  });

  constructor(
    private readonly clock: Clock,
    /** The verifications' ids: a stream of their own (a snapshot's load resumes it). */
    private random: Random,
    private readonly uploads: UploadIntentService,
    /** The orders a verification may be for: each change is reported to its order. */
    private readonly orders: OrdersAwaitingVerification,
    private readonly marks: RecordMarks,
  ) {}

  /**
   * A new verification from committed upload intents, consumed once every check passed: `pending`,
   * or straight `in_review` when its documents are complete. Nothing changes when a check fails.
   */
  create(clientId: string, input: CreateInput): Created {
    const details: Details = {};
    const intents = this.usableIntents(clientId, input.type, input.documents, details);
    const card = input.card;
    const cardProblems = card === null ? [] : this.cardProblems(clientId, card.number, input.orderId);
    if (cardProblems.length > 0) details['body.card_number'] = cardProblems;
    if (Object.keys(details).length > 0) return { ok: false, details };
    const now = this.clock.now();
    const verification: VerificationRecord = {
      id: randomUuid(this.random),
      clientId,
      type: input.type,
      status: verificationMachine.initial,
      orderId: input.orderId,
      documents: input.documents.map((d) => ({ uploadIntent: d.uploadIntent, kind: d.kind })),
      card: card === null ? null : { first6: card.number.slice(0, 6), last4: card.number.slice(-4), holderName: card.holderName, digest: cardDigest(card.number) },
      rejectionReason: null,
      expiresAt: new Date(now.getTime() + ttlSeconds * 1000),
      createdAt: now,
      updatedAt: now,
      reviewedAt: null,
    };
    for (const intent of intents) this.uploads.consume(intent);
    this.sequence.set(verification, this.verifications.size);
    this.verifications.set(verification.id, verification);
    const submitted = tryFire(verificationMachine, verification.status, 'submit', { guards: guardsOf(verification) });
    if (submitted.ok) verification.status = submitted.transition.to;
    this.timers.schedule(verification);
    this.changed(verification);
    return { ok: true, verification };
  }

  /** The client's verification of this type; undefined for an unknown one, another client's or the other type. */
  get(clientId: string, type: VerificationType, id: string): VerificationRecord | undefined {
    const verification = this.find(id);
    return verification?.clientId === clientId && verification.type === type ? verification : undefined;
  }

  /** Any client's verification (control API). */
  find(id: string): VerificationRecord | undefined {
    const verification = this.verifications.get(id);
    if (verification !== undefined) this.settle(verification);
    return verification;
  }

  /** Every client's verifications, brought up to date, newest first (the inspector). */
  all(): VerificationRecord[] {
    const all = [...this.verifications.values()].reverse();
    for (const verification of all) this.settle(verification);
    return all.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
  }

  /** The verifications started for an order, oldest first. */
  ofOrder(clientId: string, orderId: number): VerificationRecord[] {
    const found = [...this.verifications.values()].filter((v) => v.clientId === clientId && v.orderId === orderId);
    for (const verification of found) this.settle(verification);
    return found.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
  }

  hasApproved(clientId: string, type: VerificationType, cardNumber?: string): boolean {
    const digest = cardNumber === undefined ? undefined : cardDigest(cardNumber);
    for (const verification of this.verifications.values()) {
      if (verification.clientId !== clientId || verification.type !== type) continue;
      this.settle(verification);
      if (verification.status !== approvedState) continue;
      if (type === 'identity' || (digest !== undefined && verification.card?.digest === digest)) return true;
    }
    return false;
  }

  /**
   * Why an upload intent may not name this verification as its resource (createUploadIntent with
   * resource_type `verification`): details, or null when it may.
   */
  uploadTargetProblems(clientId: string, target: { verificationId: string; fieldKey: string | null; purpose: string }): Details | null {
    const verification = this.find(target.verificationId);
    if (verification === undefined || verification.clientId !== clientId) return { 'body.resource_id': ['no verification of yours has this id'] };
    const details: Details = {};
    if (!waitsForDocuments(verification)) {
      details['body.resource_id'] = [refusal(verification, 'submit')];
    }
    const kinds: readonly string[] = acceptedKinds(verification.type);
    if (target.fieldKey === null || !kinds.includes(target.fieldKey)) details['body.field_key'] = [`must be one of: ${kinds.join(', ')}`];
    if (target.purpose !== purposeOf(verification.type)) details['body.purpose'] = [`must be ${purposeOf(verification.type)} for a ${verification.type} verification`];
    return Object.keys(details).length > 0 ? details : null;
  }

  /**
   * A file was committed to an intent that names a verification: it becomes one of its
   * documents (and is consumed) while the verification still waits for documents. A verification
   * of no order has no other way to be submitted, so the upload that completes its documents
   * submits it (the machine's submit, through commitUploadIntent); one of an order waits for
   * submitOrderVerifications.
   */
  attachUpload(intent: UploadIntentRecord, verificationId: string, kind: DocumentKind): void {
    const verification = this.find(verificationId);
    if (verification === undefined || verification.clientId !== intent.clientId) return;
    if (!waitsForDocuments(verification)) return;
    if (this.uploads.unusable(intent) !== null) return;
    this.uploads.consume(intent);
    verification.documents.push({ uploadIntent: intent.uuid, kind });
    verification.updatedAt = this.clock.now();
    this.marks.changed('verification', verification.id);
    if (verification.orderId === null && tryFire(verificationMachine, verification.status, 'submit', { guards: guardsOf(verification) }).ok) {
      this.fire(verification, 'submit', guardsOf(verification));
    }
  }

  /**
   * submitOrderVerifications: every named verification must be the order's and complete (422),
   * and pending (409); then all go to review at once. Nothing changes when one fails.
   */
  submitForOrder(clientId: string, orderId: number, ids: readonly string[]): Refusable<VerificationRecord[]> {
    const invalid: Details = {};
    const conflicts: Details = {};
    const found = ids.map((id, index) => {
      const field = `body.verifications.${index}`;
      const verification = this.find(id);
      if (verification === undefined || verification.clientId !== clientId || verification.orderId !== orderId) {
        invalid[field] = ['is not a verification of this order'];
        return undefined;
      }
      const fired = tryFire(verificationMachine, verification.status, 'submit', { guards: guardsOf(verification) });
      if (fired.ok) return verification;
      if (waitsForDocuments(verification)) {
        invalid[field] = [`a required document is missing: ${missingOf(verification).join(', ')}`];
      } else {
        conflicts[field] = [refusal(verification, 'submit')];
      }
      return undefined;
    });
    if (Object.keys(invalid).length > 0) return { ok: false, refused: 'validation', details: invalid };
    if (Object.keys(conflicts).length > 0) return { ok: false, refused: 'state', details: conflicts };
    const submitted = found.filter((v): v is VerificationRecord => v !== undefined);
    for (const verification of submitted) this.fire(verification, 'submit', guardsOf(verification));
    return { ok: true, value: submitted };
  }

  /**
   * The reviewer's decision (control reviewVerification): a verification still pending is taken
   * into review first (the reviewer overrides the documents guard); the decision then follows the
   * machine or is refused with its reason (409 details.decision). Asking for more information
   * (request_more_info) sends it back to pending with its ttl started again; the documents of
   * the kinds in `resubmit` are set aside, so the client must upload them again.
   */
  review(verification: VerificationRecord, decision: VerificationEvent, reason: string | null, resubmit: readonly DocumentKind[] = []): Refusable<VerificationRecord> {
    this.settle(verification);
    const notAttached = resubmit.filter((kind) => !verification.documents.some((d) => d.kind === kind));
    if (notAttached.length > 0) return { ok: false, refused: 'validation', details: { 'body.documents': notAttached.map((kind) => `the verification has no ${kind} document`) } };
    const intake = tryFire(verificationMachine, verification.status, 'submit', { ignoreGuards: true });
    const decided = tryFire(verificationMachine, intake.ok ? intake.transition.to : verification.status, decision);
    if (!decided.ok) return { ok: false, refused: 'state', details: { decision: [decided.reason] } };
    if (intake.ok) this.fire(verification, 'submit', {}, true);
    const now = this.clock.now();
    verification.rejectionReason = reason;
    verification.reviewedAt = now;
    if (waitsForDocumentsIn(decided.transition.to)) {
      // The machine's x-assumption: the ttl starts again when staff ask for more.
      verification.documents = verification.documents.filter((d) => !resubmit.includes(d.kind));
      verification.expiresAt = new Date(now.getTime() + ttlSeconds * 1000);
    }
    this.fire(verification, decision);
    return { ok: true, value: verification };
  }

  /**
   * Every verification in creation order, as stored (not brought up to date), and the stream's
   * position (snapshots); `withRecords` false: the verifications left out (a journal's header).
   */
  exportState(withRecords = true): { verifications: SandboxStateVerification[]; random: number } {
    return { verifications: withRecords ? [...this.verifications.values()].map(verificationState) : [], random: this.random.state() };
  }

  /** One verification as exportState lists it (as stored); undefined when there is none. */
  exportRecord(id: string): SandboxStateVerification | undefined {
    const verification = this.verifications.get(id);
    return verification === undefined ? undefined : verificationState(verification);
  }

  /**
   * Replaces the verifications with a snapshot's (at `pointer`), after the upload intents their
   * documents name were restored; each client is checked by `requireClient`. Rebuilds the creation
   * sequence and the expiry queue, and resumes the stream at `randomAt`. Nothing is settled or
   * reported to orders here: the clock is the snapshot's only once the load is done.
   */
  restoreState(
    state: { verifications: readonly SandboxStateVerification[]; randomAt: number },
    requireClient: (clientId: string, pointer: string) => void,
    pointer: string,
  ): void {
    this.verifications.clear();
    this.timers.clear();
    state.verifications.forEach(({ documents, expiresAtMs, createdAtMs, updatedAtMs, reviewedAtMs, ...rest }, index) => {
      const at = `${pointer}/${index}`;
      if (this.verifications.has(rest.id)) throw new StateRejected(`${at}/id`, 'another verification has this id');
      requireClient(rest.clientId, `${at}/clientId`);
      const type = requireOneOf(rest.type, verificationTypes, `${at}/type`);
      const verification: VerificationRecord = {
        ...rest,
        type,
        status: requireOneOf(rest.status, verificationMachine.states, `${at}/status`),
        documents: documents.map((document, position) => {
          const documentAt = `${at}/documents/${position}`;
          if (this.uploads.clientOf(document.uploadIntent) !== rest.clientId) throw new StateRejected(`${documentAt}/uploadIntent`, 'the client has no upload intent with this uuid');
          return { uploadIntent: document.uploadIntent, kind: requireOneOf(document.kind, acceptedKinds(type), `${documentAt}/kind`) };
        }),
        expiresAt: new Date(expiresAtMs),
        createdAt: new Date(createdAtMs),
        updatedAt: new Date(updatedAtMs),
        reviewedAt: reviewedAtMs === null ? null : new Date(reviewedAtMs),
      };
      this.sequence.set(verification, index);
      this.verifications.set(verification.id, verification);
    });
    for (const verification of this.verifications.values()) this.timers.schedule(verification);
    this.random = createRandom(this.random.seed, state.randomAt);
  }

  /** Applies every expiry now due: only the verifications the queue says are due. */
  tick(): void {
    const due = this.timers.takeDue(this.clock.nowMs());
    for (const verification of due) this.settle(verification);
  }

  /**
   * Why the card cannot be verified now: it is verified already (a card is verified once), or the
   * order the verification names is paid with another card (order-card.ts).
   */
  private cardProblems(clientId: string, cardNumber: string, orderId: number | null): string[] {
    const problems: string[] = [];
    if (this.hasApproved(clientId, 'card', cardNumber)) problems.push('this card is already verified; a card is verified once');
    const order = orderId === null ? undefined : this.orders.findAny(String(orderId));
    const otherCard = order === undefined ? null : otherCardProblem(order, cardNumber);
    if (otherCard !== null) problems.push(otherCard);
    return problems;
  }

  /** The checks of each named upload intent; the usable intents (details filled for the others). */
  private usableIntents(clientId: string, type: VerificationType, documents: readonly DocumentInput[], details: Details): UploadIntentRecord[] {
    const kinds: readonly string[] = acceptedKinds(type);
    const seen = new Set<string>();
    const usable: UploadIntentRecord[] = [];
    for (const document of documents) {
      const problems: string[] = [];
      const intent = this.uploads.get(clientId, document.uploadIntent);
      if (seen.has(document.uploadIntent)) problems.push('names an upload intent already named in this request');
      seen.add(document.uploadIntent);
      if (!kinds.includes(document.kind)) (details[`${document.field}.kind`] ??= []).push(`a ${type} verification takes: ${kinds.join(', ')}`);
      if (intent === undefined) {
        problems.push('no upload intent of yours has this uuid');
      } else {
        if (intent.purpose !== purposeOf(type)) problems.push(`the upload intent is for ${intent.purpose}; a ${type} verification takes ${purposeOf(type)}`);
        const unusable = this.uploads.unusable(intent);
        if (unusable !== null) problems.push(unusable);
      }
      if (problems.length > 0) (details[`${document.field}.upload_intent`] ??= []).push(...problems);
      else if (intent !== undefined) usable.push(intent);
    }
    return usable;
  }

  /** Fires an event the caller checked and reports the change to the order. */
  private fire(verification: VerificationRecord, event: VerificationEvent, guards: Record<string, boolean> = {}, ignoreGuards = false): void {
    const fired = tryFire(verificationMachine, verification.status, event, { guards, ignoreGuards });
    if (!fired.ok) throw new Error(`verification ${verification.id}: ${fired.reason}`);
    verification.status = fired.transition.to;
    verification.updatedAt = this.clock.now();
    this.timers.schedule(verification);
    this.changed(verification);
  }

  /** Marks the verification for the journal and reports the change to its order, if it is for one (order-link.ts). */
  private changed(verification: VerificationRecord): void {
    this.marks.changed('verification', verification.id);
    reportToOrder(this.orders, this, verification);
  }

  /** Expiry falls due at expires_at; applied whenever the verification is next looked at. */
  private settle(verification: VerificationRecord): void {
    if (this.clock.now().getTime() < verification.expiresAt.getTime()) return;
    const fired = tryFire(verificationMachine, verification.status, 'expire');
    if (!fired.ok) return;
    verification.status = fired.transition.to;
    verification.updatedAt = verification.expiresAt;
    this.timers.schedule(verification);
    this.changed(verification);
  }
}

function verificationState({ documents, card, expiresAt, createdAt, updatedAt, reviewedAt, ...rest }: VerificationRecord): SandboxStateVerification {
  return {
    ...rest,
    documents: documents.map((d) => ({ ...d })),
    card: card === null ? null : { ...card },
    expiresAtMs: expiresAt.getTime(),
    createdAtMs: createdAt.getTime(),
    updatedAtMs: updatedAt.getTime(),
    reviewedAtMs: reviewedAt?.getTime() ?? null,
  };
}
