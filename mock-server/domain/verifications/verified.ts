// Whether a client has passed a verification: what quotes, orders and the requirements ask
// before holding an exchange for one (EX-CAT's catalog calls it).
import type { Sandbox } from '../../sandbox.js';
import { verificationService } from './verification-service.js';

/**
 * identity: any approved identity verification of the client; card: an approved card
 * verification of exactly this card number (a card is verified once, whatever the order).
 */
export function hasApprovedVerification(sandbox: Sandbox, clientId: string, type: 'identity' | 'card', cardNumber?: string): boolean {
  return verificationService(sandbox).hasApproved(clientId, type, cardNumber);
}
