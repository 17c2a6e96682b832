// The headers a replica adds to a request it forwards to the holder of the sandbox (peer-listener.ts
// reads them, mock-server/replica/forward-to-holder.ts writes them). Lower-case: node gives header names so.

/** The holder's secret (JournalHolding): proves the request comes from a replica. */
export const replicaSecretHeader = 'x-exchange-api-kit-replica';
/** The caller's address as the replica's `trust proxy` reads it (what the IP allow-list checks). */
export const callerAddressHeader = 'x-exchange-api-kit-caller';
/** On a 421 from a peer listener: that process does not hold the sandbox (any more); ask where it is. */
export const notHolderHeader = 'x-exchange-api-kit-not-holder';
