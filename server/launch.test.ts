import fs from 'node:fs';
import { BUILT_SERVER_ARGS, BUILT_SERVER_ENV, builtServerCommand } from './launch.ts';

describe('BUILT_SERVER_ARGS and BUILT_SERVER_ENV', () => {
  it('are the arguments and environment `npm start` gives node', () => {
    const manifest = JSON.parse(fs.readFileSync('package.json', 'utf8')) as {
      scripts: { start: string };
    };
    expect(manifest.scripts.start).toBe(`npm run build && ${builtServerCommand()}`);
  });

  it('are the command of the container image (the environment too)', () => {
    const dockerfile = fs.readFileSync('Dockerfile', 'utf8');
    const command = /^CMD (\[.*\])$/m.exec(dockerfile)?.[1];
    expect(JSON.parse(command ?? 'null')).toEqual(['node', ...BUILT_SERVER_ARGS]);
    for (const [name, value] of Object.entries(BUILT_SERVER_ENV)) {
      expect(dockerfile).toMatch(new RegExp(`^ENV .*\\b${name}=${value}\\b`, 'm'));
    }
  });
});
