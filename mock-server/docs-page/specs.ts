// The contracts /docs shows, served as JSON for Swagger UI with the `base_url` server variable
// defaulting to the mock being read, so "Try it out" calls this mock.
import { bundledDocument, type BundledContract } from '../bundled-contracts.js';

export const docsContracts: readonly BundledContract[] = ['exchange-v3', 'deposit-v1', 'sandbox-control'];

export function isDocsContract(name: string): name is BundledContract {
  return (docsContracts as readonly string[]).includes(name);
}

interface ServerObject {
  url: string;
  variables?: Record<string, { default: string }>;
}

export function specFor(contract: BundledContract, origin: string): Record<string, unknown> {
  const document = bundledDocument(contract);
  const servers = (document.servers ?? []) as ServerObject[];
  return {
    ...document,
    servers: servers.map((server) =>
      server.variables?.base_url === undefined ? server : { ...server, variables: { ...server.variables, base_url: { ...server.variables.base_url, default: origin } } },
    ),
  };
}

export function titleOf(contract: BundledContract): string {
  const info = bundledDocument(contract).info as { title?: string } | undefined;
  return info?.title ?? contract;
}
