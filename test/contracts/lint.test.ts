// `npm run lint:contracts` (Redocly CLI, contracts/redocly.yaml) reports no problem at all.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../support/contracts.js';

describe('redocly lint', () => {
  it('reports 0 errors and 0 warnings on both contracts', () => {
    let output = '';
    let status = 0;
    try {
      output = execFileSync('npm', ['run', '-s', 'lint:contracts'], { cwd: repoRoot, encoding: 'utf8', stdio: 'pipe' });
    } catch (error) {
      const failed = error as { status: number; stdout: string; stderr: string };
      status = failed.status;
      output = failed.stdout + failed.stderr;
    }
    expect(output).not.toMatch(/\b(error|warning)\b.*\b(no-|operation-|path-|spec|security|struct)/);
    expect(status, output).toBe(0);
  });
});
