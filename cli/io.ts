// What a subcommand reads and writes, so tests can run one in-process.
export interface CommandIo {
  env: NodeJS.ProcessEnv;
  stdout(text: string): void;
  stderr(text: string): void;
}

export const processIo: CommandIo = {
  env: process.env,
  stdout: (text) => void process.stdout.write(`${text}\n`),
  stderr: (text) => void process.stderr.write(`${text}\n`),
};
