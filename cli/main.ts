// The `exchange-api-kit` command: serve | generate | conformance, each with --help. Resolves
// with the exit code: 0 ok, 1 failure, 2 usage or configuration error.
import { readFileSync } from 'node:fs';
import { kitPath } from '../kit-files.js';
import { conformanceCommand } from './conformance.js';
import { generateCommand } from './generate.js';
import { processIo, type CommandIo } from './io.js';
import { serve } from './serve.js';

export const mainUsage = `usage: exchange-api-kit <command> [options]

Commands:
  serve         run the mock server (exchange API v3, deposit API v1, sandbox control, /docs)
  generate      generate types, validators, routers and typed clients from the contracts
  scaffold      write a starter server on the generated routers (--out DIR)
  diff          compare two versions of a contract: breaking and non-breaking changes
  conformance   check any server (the real service, the mock, a stub) against the contracts
  proxy         forward to any server, judging every exchange against the contracts (--record)
  listen        forward a running mock's webhook events to a local URL, signed
  trigger       make a running mock emit a webhook event (trigger --list names them)

Run \`exchange-api-kit <command> --help\` for its options. Every option of serve can also be
given as an environment variable or in a config file (--config mock.json|mock.yaml).

Exit codes: 0 ok, 1 failure (cannot start, conformance failures, stale files, breaking changes),
2 usage or configuration error.`;

export async function main(argv: readonly string[], io: CommandIo = processIo): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'serve':
      return serve(rest, io);
    case 'generate':
      return generateCommand(rest, io);
    case 'conformance':
      return conformanceCommand(rest);
    case 'scaffold':
      return (await import('./scaffold.js')).scaffoldCommand(rest, io);
    case 'diff':
      return (await import('./diff.js')).diffCommand(rest, io);
    // Integrator tools, loaded on demand so `serve` does not pay for them.
    case 'proxy':
      return (await import('./proxy.js')).proxyCommand(rest, io);
    case 'listen':
      return (await import('./listen.js')).listenCommand(rest, io);
    case 'trigger':
      return (await import('./trigger.js')).triggerCommand(rest, io);
    case '--help':
    case '-h':
    case 'help':
      io.stdout(mainUsage);
      return 0;
    case '--version':
      io.stdout(String((JSON.parse(readFileSync(kitPath('package.json'), 'utf8')) as { version: string }).version));
      return 0;
    default:
      io.stderr(`${command === undefined ? 'exchange-api-kit: a command is needed' : `exchange-api-kit: unknown command "${command}"`}\n\n${mainUsage}`);
      return 2;
  }
}
