// `exchange-api-kit conformance …`: the conformance runner's own command (conformance/cli-main.ts),
// which owns its flags, help and exit codes (0 no failure, 1 a check failed, 2 usage error).
// Loaded on demand, so the other commands do not pay for it.
export async function conformanceCommand(argv: readonly string[]): Promise<number> {
  const { runConformanceCli } = await import('../conformance/cli-main.js');
  return runConformanceCli(argv);
}
