// YAML parsing with the parser loaded on first use: importing `yaml` costs about a tenth of the
// command's start-up, and only a config file (--config mock.yaml) and the contracts catalog,
// read on its first request, need it.
import { createRequire } from 'node:module';

type YamlModule = typeof import('yaml');
let yaml: YamlModule | undefined;

export function parseYaml(text: string): unknown {
  yaml ??= createRequire(import.meta.url)('yaml') as YamlModule;
  return yaml.parse(text);
}
